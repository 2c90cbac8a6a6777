import { Command, Option, UsageError } from 'clipanion'
import { reportFailure } from '../auth/failure.js'
import { requireSession, sessionFailure } from '../auth/session.js'
import { requireProject, resolveProjectSlug } from '../push/project.js'
import { resolveSiteDir } from '../site-dir.js'

export class AnalyticsUnsetCommand extends Command {
  static override paths = [['analytics', 'unset']]
  static override usage = Command.Usage({
    category: 'Analytics',
    description: "Stop sending a project's page views to a provider",
    details: `
      Removes the provider's settings; the next deployment's pages load no analytics script.
    `,
    examples: [['Remove PostHog', 'docsctl analytics unset posthog']],
  })

  provider = Option.String({ name: 'provider' })
  project = Option.String('--project', {
    description: 'Project slug (default: DOCSCTL_PROJECT, then docs.json "slug")',
  })
  apiUrl = Option.String('--api-url', { description: 'API address (default: the signed-in server)' })

  override async execute(): Promise<number> {
    if (this.provider !== 'posthog')
      throw new UsageError(
        `Unknown analytics provider "${this.provider}"; the supported provider is posthog.`,
      )
    let apiUrl = ''
    try {
      const slug = await resolveProjectSlug(this.project, await resolveSiteDir(undefined))
      const { client } = await requireSession(this.apiUrl)
      apiUrl = client.apiUrl
      const project = await requireProject(client, slug)
      await client.unsetAnalytics(project.id)
      this.context.stdout.write(`Removed PostHog from ${project.slug}. Push again to update the live site.\n`)
      return 0
    } catch (error) {
      return reportFailure(this.context, sessionFailure(error, apiUrl))
    }
  }
}
