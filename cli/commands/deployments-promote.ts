import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { confirmAction, printJson, shortTime } from '../output.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'
import { requireDeployment } from './deployments-show.js'

export class DeploymentsPromoteCommand extends Command {
  static override paths = [['deployments', 'promote']]
  static override usage = Command.Usage({
    category: 'Deployments',
    description: 'Make a ready deployment live: a rollback when it is an older one',
    details: `
      The switch is one database update: readers see the old site or the new one, never a mix. Asks
      first in a terminal; pass \`--yes\` in a script. \`docsctl deployments list\` shows the ids.
    `,
    examples: [
      ['Roll back to an earlier deployment', 'docsctl deployments promote dpl_…'],
      ['In a script', 'docsctl deployments promote dpl_… --project acme-docs --yes'],
    ],
  })

  id = Option.String({ name: 'deployment-id' })
  yes = Option.Boolean('--yes', false, { description: 'Do not ask for confirmation' })
  json = jsonOption('the promoted deployment')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(this.context, this, async (client, project) => {
      const deployment = await requireDeployment(client, project, this.id)
      if (deployment.live) {
        if (this.json) printJson(this.context, deployment)
        else this.context.stdout.write(`${deployment.id} is already live at ${project.url}\n`)
        return 0
      }
      await confirmAction({
        yes: this.yes,
        question: `Make ${deployment.id} (${deployment.branch}, ${shortTime(deployment.createdAt)}) live at ${project.url}?`,
        action: `Promoting ${deployment.id}`,
      })
      const promoted = await client.promoteDeployment(project.slug, deployment.id)
      if (this.json) printJson(this.context, promoted)
      else
        this.context.stdout.write(
          `${pc.green('Promoted')} ${promoted.id}. Live at ${promoted.url ?? project.url}\n`,
        )
      return 0
    })
  }
}
