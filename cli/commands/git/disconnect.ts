import { Command } from 'clipanion'
import { apiUrlOption, projectOption, runForProject } from '../../project-command.js'

export class GitDisconnectCommand extends Command {
  static override paths = [['git', 'disconnect']]
  static override usage = Command.Usage({
    category: 'Git',
    description: 'Stop deploying pushes of the connected repository',
    details: `
      Removes the connection: pushes no longer deploy and branch previews stop answering. The live
      site and every deployment stay. Remove the webhook (or the GitHub App) on the Git server too.
    `,
    examples: [['Disconnect', 'docsctl git disconnect']],
  })

  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(this.context, this, async (client, project) => {
      await client.disconnectGit(project.id)
      this.context.stdout.write(
        `Disconnected ${project.slug} from its repository; the live site stays. Remove the webhook on the Git server too.\n`,
      )
      return 0
    })
  }
}
