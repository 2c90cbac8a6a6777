import { Command } from 'clipanion'
import type { GitSettings } from '../../api.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../../project-command.js'

/** The connection, the webhook to configure and the latest deliveries, as `git status` and `git connect` print them. */
export function printGitSettings(out: NodeJS.WritableStream, slug: string, settings: GitSettings): void {
  const { connection } = settings
  if (!connection) {
    out.write(
      `${slug} is not connected to a Git repository. Connect one with: docsctl git connect <clone URL>\n`,
    )
    return
  }
  const lines = [
    `repository:  ${connection.repositoryUrl} (${connection.provider})`,
    `production:  ${connection.productionBranch}`,
    `docs folder: ${connection.docsDirectory ?? 'the first of ., docs, apps/docs holding docs.json'}`,
    `previews:    ${connection.previewBranches.length ? connection.previewBranches.join(', ') : 'none'}`,
  ]
  if (connection.provider === 'github') {
    lines.push(
      `webhook:     install the server's GitHub App on the repository (it delivers to ${connection.webhook.url})`,
    )
  } else {
    lines.push(
      `webhook URL: ${connection.webhook.url}`,
      `secret:      ${connection.webhook.secret ?? ''}`,
      `events:      ${connection.webhook.events.join(', ')}`,
    )
  }
  if (settings.deliveries.length > 0) {
    lines.push('latest pushes:')
    for (const delivery of settings.deliveries) {
      const detail = delivery.detail ? ` (${delivery.detail})` : ''
      lines.push(`  ${delivery.commitSha.slice(0, 8)} ${delivery.branch}: ${delivery.status}${detail}`)
    }
  }
  out.write(`${lines.join('\n')}\n`)
}

export class GitStatusCommand extends Command {
  static override paths = [['git', 'status']]
  static override usage = Command.Usage({
    category: 'Git',
    description: "Print a project's Git connection, its webhook and its latest pushes",
    examples: [
      ['Show the connection of the project in docs.json', 'docsctl git status'],
      ['As JSON, for scripts', 'docsctl git status --project acme-docs --json'],
    ],
  })

  json = jsonOption('the connection')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(this.context, this, async (client, project) => {
      const settings = await client.getGit(project.id)
      if (this.json) this.context.stdout.write(`${JSON.stringify(settings, null, 2)}\n`)
      else printGitSettings(this.context.stdout, project.slug, settings)
      return 0
    })
  }
}
