import { Command } from 'clipanion'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'

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

  json = jsonOption('the settings')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(this.context, this, async (client, project) => {
      const config = await client.getAnalytics(project.id)
      if (this.json) this.context.stdout.write(`${JSON.stringify(config, null, 2)}\n`)
      else if (config.posthog)
        this.context.stdout.write(`posthog\n  key:  ${config.posthog.key}\n  host: ${config.posthog.host}\n`)
      else
        this.context.stdout.write(
          `No analytics for ${project.slug}. Add PostHog with: docsctl analytics set posthog <phc_ key>\n`,
        )
      return 0
    })
  }
}
