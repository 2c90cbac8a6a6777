import { Command, Option } from 'clipanion'
import { reportFailure } from '../auth/failure.js'
import { requireSession, sessionFailure } from '../auth/session.js'
import { requireProject, resolveProjectSlug } from '../push/project.js'
import { resolveSiteDir } from '../site-dir.js'

export class AnalyticsGetCommand extends Command {
  static override paths = [['analytics', 'get']]
  static override usage = Command.Usage({
    category: 'Analytics',
    description: "Print a project's analytics settings",
    examples: [
      ['Show the settings of the project in docs.json', 'docsctl analytics get'],
      ['As JSON, for scripts', 'docsctl analytics get --project acme-docs --json'],
    ],
  })

  json = Option.Boolean('--json', false, { description: 'Print the settings as JSON' })
  project = Option.String('--project', {
    description: 'Project slug (default: DOCSCTL_PROJECT, then docs.json "slug")',
  })
  apiUrl = Option.String('--api-url', { description: 'API address (default: the signed-in server)' })

  override async execute(): Promise<number> {
    let apiUrl = ''
    try {
      const slug = await resolveProjectSlug(this.project, await resolveSiteDir(undefined))
      const { client } = await requireSession(this.apiUrl)
      apiUrl = client.apiUrl
      const project = await requireProject(client, slug)
      const config = await client.getAnalytics(project.id)
      if (this.json) this.context.stdout.write(`${JSON.stringify(config, null, 2)}\n`)
      else if (config.posthog)
        this.context.stdout.write(`posthog\n  key:  ${config.posthog.key}\n  host: ${config.posthog.host}\n`)
      else
        this.context.stdout.write(
          `No analytics for ${project.slug}. Add PostHog with: docsctl analytics set posthog <phc_ key>\n`,
        )
      return 0
    } catch (error) {
      return reportFailure(this.context, sessionFailure(error, apiUrl))
    }
  }
}
