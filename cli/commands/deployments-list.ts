import { Command, Option, UsageError } from 'clipanion'
import { deploymentState, firstLine, printJson, shortTime, table } from '../output.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'

export class DeploymentsListCommand extends Command {
  static override paths = [['deployments', 'list']]
  static override usage = Command.Usage({
    category: 'Deployments',
    description: "List a project's deployments, newest first",
    examples: [
      ['Deployments of the project in docs.json', 'docsctl deployments list'],
      ['The last 50, as JSON', 'docsctl deployments list --project acme-docs --limit 50 --json'],
    ],
  })

  limit = Option.String('--limit', '20', { description: 'How many to list, 1 to 100 (default: 20)' })
  json = jsonOption('the deployments')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    const limit = Number(this.limit)
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new UsageError(`--limit must be a whole number from 1 to 100, not "${this.limit}"`)
    return runForProject(this.context, this, async (client, project) => {
      const { deployments, nextCursor } = await client.listDeployments(project.slug, { limit })
      if (this.json) {
        printJson(this.context, deployments)
        return 0
      }
      if (deployments.length === 0) {
        this.context.stdout.write(`No deployments of ${project.slug} yet. \`docsctl push\` makes one.\n`)
        return 0
      }
      const rows = deployments.map((deployment) => [
        deployment.id,
        deploymentState(deployment),
        deployment.branch,
        shortTime(deployment.createdAt),
        firstLine(deployment.commitMessage),
      ])
      this.context.stdout.write(`${table([['ID', 'STATE', 'BRANCH', 'CREATED', 'MESSAGE'], ...rows])}\n`)
      if (nextCursor)
        this.context.stdout.write(`Showing the newest ${deployments.length}; pass --limit for more.\n`)
      return 0
    })
  }
}
