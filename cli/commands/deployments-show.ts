import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { formatDiagnostic, sortDiagnostics } from '../../compiler/diagnostics.js'
import { type ApiClient, ApiError, type Deployment, type Project } from '../api.js'
import { CommandFailure } from '../auth/failure.js'
import { deploymentState, printJson, shortTime } from '../output.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'
import { formatBytes } from '../push/progress.js'

export class DeploymentsShowCommand extends Command {
  static override paths = [['deployments', 'show']]
  static override usage = Command.Usage({
    category: 'Deployments',
    description: 'Show one deployment: its state, URLs, files and build problems',
    examples: [
      ['A deployment of the project in docs.json', 'docsctl deployments show dpl_…'],
      ['As JSON', 'docsctl deployments show dpl_… --project acme-docs --json'],
    ],
  })

  id = Option.String({ name: 'deployment-id' })
  json = jsonOption('the deployment')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(this.context, this, async (client, project) => {
      const deployment = await requireDeployment(client, project, this.id)
      if (this.json) {
        printJson(this.context, {
          ...deployment,
          diagnostics: await client.allDiagnostics(project.slug, deployment),
        })
        return 0
      }
      const lines = [
        `${deployment.id} of ${project.slug}: ${deploymentState(deployment)}`,
        `Branch:   ${deployment.branch}`,
        ...(deployment.commitMessage ? [`Message:  ${deployment.commitMessage.split('\n')[0]}`] : []),
        `Created:  ${shortTime(deployment.createdAt)}`,
        `Files:    ${deployment.fileCount} (${formatBytes(deployment.totalBytes)})`,
        ...(deployment.url ? [`Live at:  ${deployment.url}`] : []),
        ...(deployment.previewUrl ? [`Preview:  ${deployment.previewUrl}`] : []),
      ]
      if (deployment.status === 'ready' && !deployment.live)
        lines.push(`Make it live: docsctl deployments promote ${deployment.id} --project ${project.slug}`)
      for (const diagnostic of sortDiagnostics(await client.allDiagnostics(project.slug, deployment)))
        lines.push(
          `${diagnostic.severity === 'error' ? pc.red('error') : pc.yellow('warning')} ${formatDiagnostic(diagnostic)}`,
        )
      this.context.stdout.write(`${lines.join('\n')}\n`)
      return 0
    })
  }
}

/** The deployment with this id in the project, or a failure that says where to find the ids. */
export async function requireDeployment(
  client: ApiClient,
  project: Project,
  id: string,
): Promise<Deployment> {
  try {
    return await client.getDeployment(project.slug, id)
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      throw new CommandFailure(
        `No deployment ${id} in ${project.slug}. \`docsctl deployments list --project ${project.slug}\` shows the ids.`,
      )
    throw error
  }
}
