import { Command } from 'clipanion'
import { reportFailure } from '../auth/failure.js'
import { credentialsPath, deleteSession } from '../credentials.js'

export class LogoutCommand extends Command {
  static override paths = [['logout']]
  static override usage = Command.Usage({
    description: 'Delete the stored session',
    details: `
      Removes the local credentials file. Deployed docs stay online and deploy keys keep working.
    `,
    examples: [['Sign out on this machine', 'docsctl logout']],
  })

  override async execute(): Promise<number> {
    try {
      if (await deleteSession()) this.context.stdout.write(`Signed out: removed ${credentialsPath()}.\n`)
      else this.context.stdout.write('You were not signed in; there is nothing to remove.\n')
      return 0
    } catch (error) {
      return reportFailure(this.context, error)
    }
  }
}
