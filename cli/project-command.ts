/**
 * What every command about one project (domains, analytics, deployments, keys, …) shares: the
 * `--project`, `--api-url` and `--json` options, and running against the signed-in session's project
 * with failures reported the CLI's one way.
 */
import { type BaseContext, Option } from 'clipanion'
import { resolveSiteDir } from '../lib/site-dir.js'
import type { ApiClient, Project } from './api.js'
import { reportFailure } from './auth/failure.js'
import { requireSession, sessionFailure } from './auth/session.js'
import { requireProject, resolveProjectSlug } from './push/project.js'

export const projectOption = () =>
  Option.String('--project', {
    description: 'Project slug (default: DOCSCTL_PROJECT, then docs.json "slug")',
  })
export const apiUrlOption = () =>
  Option.String('--api-url', { description: 'API address (default: the signed-in server)' })
export const jsonOption = (what: string) =>
  Option.Boolean('--json', false, { description: `Print ${what} as JSON` })

/** Resolve the project, sign in, run; answers the exit code (1 with a clear message on failure). */
export async function runForProject(
  context: BaseContext,
  options: { project: string | undefined; apiUrl: string | undefined },
  run: (client: ApiClient, project: Project) => Promise<number>,
): Promise<number> {
  let apiUrl = ''
  try {
    const slug = await resolveProjectSlug(options.project, await resolveSiteDir(undefined))
    const { client } = await requireSession(options.apiUrl)
    apiUrl = client.apiUrl
    return await run(client, await requireProject(client, slug))
  } catch (error) {
    return reportFailure(context, sessionFailure(error, apiUrl))
  }
}
