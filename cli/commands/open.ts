import { Command, Option } from 'clipanion'
import { CommandFailure } from '../auth/failure.js'
import { printJson } from '../output.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'
import { requireDeployment } from './deployments-show.js'

export class OpenCommand extends Command {
  static override paths = [['open']]
  static override usage = Command.Usage({
    description: 'Open the live site (or a deployment’s preview) in a browser',
    examples: [
      ['The live site of the project in docs.json', 'docsctl open'],
      ['The preview of one deployment', 'docsctl open --deployment dpl_…'],
      ['Only print the URL, as JSON', 'docsctl open --project acme-docs --json'],
    ],
  })

  deployment = Option.String('--deployment', { description: 'Open this deployment’s preview instead' })
  json = jsonOption('the URL instead of opening it')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(this.context, this, async (client, project) => {
      let url: string
      if (this.deployment) {
        const deployment = await requireDeployment(client, project, this.deployment)
        const found = deployment.url ?? deployment.previewUrl
        if (!found)
          throw new CommandFailure(
            `${deployment.id} is ${deployment.status} and has no preview yet. See \`docsctl deployments show ${deployment.id}\`.`,
          )
        url = found
      } else if (project.liveDeploymentId) url = project.url
      else
        throw new CommandFailure(
          `${project.slug} has nothing live yet. Deploy it with \`docsctl push\`, or open a preview with --deployment.`,
        )
      if (this.json) {
        printJson(this.context, { url })
        return 0
      }
      this.context.stdout.write(`Opening ${url}\n`)
      try {
        const { default: open } = await import('open')
        await open(url)
      } catch {
        this.context.stdout.write('Could not start a browser; open the URL above by hand.\n')
      }
      return 0
    })
  }
}
