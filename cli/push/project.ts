/**
 * Which project a push or an analytics command is about, and the first-push offer to create it.
 * Slug precedence (the spec's): `--project`, then `DOCSCTL_PROJECT`, then `slug` in docs.json.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as prompts from '@clack/prompts'
import { parse } from 'jsonc-parser'
import pc from 'picocolors'
import type { ApiClient, Project } from '../api.js'
import { CommandFailure } from '../auth/failure.js'

/** `slug` and `name` of a docs.json, when it has them; invalid files are reported by validation. */
export async function readSiteIdentity(dir: string): Promise<{ slug?: string; name?: string }> {
  try {
    const parsed: unknown = parse(await readFile(join(dir, 'docs.json'), 'utf8'))
    if (typeof parsed !== 'object' || parsed === null) return {}
    const { slug, name } = parsed as Record<string, unknown>
    return {
      ...(typeof slug === 'string' && slug !== '' ? { slug } : {}),
      ...(typeof name === 'string' && name !== '' ? { name } : {}),
    }
  } catch {
    return {}
  }
}

export async function resolveProjectSlug(
  flag: string | undefined,
  dir: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const slug = flag ?? env.DOCSCTL_PROJECT ?? (dir ? (await readSiteIdentity(dir)).slug : undefined)
  if (!slug)
    throw new CommandFailure(
      'No project slug. Pass --project <slug>, set DOCSCTL_PROJECT, or add "slug" to docs.json.',
    )
  return slug
}

/** The signed-in user's project with this slug, or a CommandFailure naming the ways to pick one. */
export async function requireProject(client: ApiClient, slug: string): Promise<Project> {
  const project = await client.findProjectBySlug(slug)
  if (!project)
    throw new CommandFailure(
      `No project "${slug}" on ${client.apiUrl} that you can reach. Check --project, DOCSCTL_PROJECT or "slug" in docs.json; \`docsctl push\` offers to create it.`,
    )
  return project
}

/** A terminal a person can answer: both ends are TTYs and this is not a CI job. */
export const isInteractive = (isCi: boolean): boolean =>
  Boolean(process.stdin.isTTY && process.stdout.isTTY) && !isCi

/**
 * First push to a slug that matches no project: ask, create it, and make a deploy key for CI
 * (printed once). Answers `undefined` when the person declines.
 */
export async function offerToCreateProject(input: {
  client: ApiClient
  slug: string
  suggestedName: string | undefined
  write: (text: string) => void
}): Promise<Project | undefined> {
  const { client, slug } = input
  const create = await prompts.confirm({
    message: `No project "${slug}" exists on ${client.apiUrl}. Create it now?`,
    initialValue: true,
  })
  if (prompts.isCancel(create) || !create) return undefined
  const name = await prompts.text({
    message: 'Display name of the project',
    initialValue: input.suggestedName ?? slug,
    validate: (value) => (value && value.trim() !== '' ? undefined : 'A name is required'),
  })
  if (prompts.isCancel(name)) return undefined
  const project = await client.createProject({ name: String(name).trim(), slug })
  const { token } = await client.createDeployKey(project.id, 'CI (created by docsctl push)')
  input.write(
    [
      `${pc.green('Created')} project ${project.slug} (${project.id}).`,
      '',
      'A deploy key for CI (shown once; store it as a secret named DOCSCTL_API_KEY):',
      `  ${token}`,
      '',
      'In CI, install docsctl from this repository (npm install --global <its git URL, or a tarball',
      'made by `npm pack`>), then run:',
      `  DOCSCTL_API_URL=${client.apiUrl} DOCSCTL_API_KEY=<the key> docsctl push --project ${project.slug}`,
      'The README has ready GitHub Actions and GitLab CI jobs.',
      '',
    ].join('\n'),
  )
  return project
}
