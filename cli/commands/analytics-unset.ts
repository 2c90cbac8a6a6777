import { Command, Option, UsageError } from 'clipanion'
import { apiUrlOption, projectOption, runForProject } from '../project-command.js'

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
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    if (this.provider !== 'posthog')
      throw new UsageError(
        `Unknown analytics provider "${this.provider}"; the supported provider is posthog.`,
      )
    return runForProject(this.context, this, async (client, project) => {
      await client.unsetAnalytics(project.id)
      this.context.stdout.write(`Removed PostHog from ${project.slug}. Push again to update the live site.\n`)
      return 0
    })
  }
}
