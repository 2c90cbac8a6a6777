import { Command, Option } from 'clipanion'
import { deploymentState, firstLine, printJson, shortTime, table } from '../output.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'

export class ProjectsShowCommand extends Command {
  static override paths = [['projects', 'show']]
  static override usage = Command.Usage({
    category: 'Projects',
    description: 'Show a project, its live deployment and its latest deployments',
    examples: [
      ['The project of the docs.json here', 'docsctl projects show'],
      ['A named project, as JSON', 'docsctl projects show acme-docs --json'],
    ],
  })

  slug = Option.String({ required: false, name: 'slug' })
  json = jsonOption('the project and its latest deployments')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(
      this.context,
      { project: this.slug ?? this.project, apiUrl: this.apiUrl },
      async (client, project) => {
        const { deployments } = await client.listDeployments(project.slug, { limit: 5 })
        if (this.json) {
          printJson(this.context, { project, deployments })
          return 0
        }
        const live = deployments.find((deployment) => deployment.live)
        const lines = [
          `${project.name} (${project.slug}, ${project.id})`,
          ...(project.description ? [project.description] : []),
          `Site:     ${project.liveDeploymentId ? project.url : `nothing live yet; \`docsctl push\` deploys`}`,
          `Live:     ${project.liveDeploymentId ?? 'none'}${live ? ` (${live.branch}, ${shortTime(live.createdAt)})` : ''}`,
          `Created:  ${shortTime(project.createdAt)}`,
        ]
        if (deployments.length > 0) {
          const rows = deployments.map((deployment) => [
            deployment.id,
            deploymentState(deployment),
            deployment.branch,
            shortTime(deployment.createdAt),
            firstLine(deployment.commitMessage, 40),
          ])
          lines.push('', 'Latest deployments (all: docsctl deployments list):')
          lines.push(table([['ID', 'STATE', 'BRANCH', 'CREATED', 'MESSAGE'], ...rows]))
        }
        this.context.stdout.write(`${lines.join('\n')}\n`)
        return 0
      },
    )
  }
}
