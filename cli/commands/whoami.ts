import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { CommandFailure, reportFailure } from '../auth/failure.js'
import { requireSession, sessionFailure } from '../auth/session.js'
import { writeSession } from '../credentials.js'

export class WhoamiCommand extends Command {
  static override paths = [['whoami']]
  static override usage = Command.Usage({
    description: 'Print the signed-in email',
    details: `
      Refreshes the stored session when it has expired. When there is no session or it cannot be
      refreshed, prints a warning to run \`docsctl login\` and exits with code 0: warnings exit 0,
      errors (the server cannot be reached, a bad --api-url) exit 1.
    `,
    examples: [['Who am I signed in as?', 'docsctl whoami']],
  })

  apiUrl = Option.String('--api-url', { description: 'API address (default: the signed-in server)' })

  override async execute(): Promise<number> {
    let apiUrl = this.apiUrl ?? ''
    try {
      const signedIn = await requireSession(this.apiUrl)
      apiUrl = signedIn.client.apiUrl
      const user = await signedIn.client.me()
      if (user.email !== signedIn.session.email)
        await writeSession({ ...signedIn.session, email: user.email })
      this.context.stdout.write(`${user.email}\n`)
      return 0
    } catch (error) {
      const failure = sessionFailure(error, apiUrl)
      if (failure instanceof CommandFailure) {
        this.context.stderr.write(`${pc.yellow('Warning:')} ${failure.message}\n`)
        return 0
      }
      return reportFailure(this.context, failure)
    }
  }
}
