import { Command } from 'clipanion'
import pc from 'picocolors'
import { failureMessage, reportFailure } from '../auth/failure.js'
import { revokeSession } from '../auth/session.js'
import { credentialsPath, deleteSession, readSession } from '../credentials.js'

export class LogoutCommand extends Command {
  static override paths = [['logout']]
  static override usage = Command.Usage({
    description: 'Sign out: revoke the session on the server and delete it here',
    details: `
      Revokes the stored session on the server it belongs to (as the dashboard's sign-out does), so
      its tokens stop working everywhere, then removes the local credentials file. When the server
      cannot be reached the file is removed all the same, with a warning that the tokens stay valid
      until they expire. Deployed docs stay online and deploy keys keep working.
    `,
    examples: [['Sign out on this machine', 'docsctl logout']],
  })

  override async execute(): Promise<number> {
    const { stdout, stderr } = this.context
    try {
      const session = await readSession()
      let revoked = false
      if (session) {
        try {
          await revokeSession(session)
          revoked = true
        } catch (error) {
          stderr.write(
            `${pc.yellow('Warning:')} could not revoke the session on ${session.apiUrl}: ${failureMessage(error)}\nIts tokens stay valid until they expire.\n`,
          )
        }
      }
      if (await deleteSession())
        stdout.write(
          `Signed out${revoked ? ` of ${session?.apiUrl}: the session is revoked on the server and` : ':'} ${credentialsPath()} is removed.\n`,
        )
      else stdout.write('You were not signed in; there is nothing to remove.\n')
      return 0
    } catch (error) {
      return reportFailure(this.context, error)
    }
  }
}
