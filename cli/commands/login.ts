import { Command, Option, UsageError } from 'clipanion'
import pc from 'picocolors'
import { reportFailure } from '../auth/failure.js'
import { signIn } from '../auth/login.js'
import { resolveApiUrl } from '../auth/session.js'
import { readSession } from '../credentials.js'

export class LoginCommand extends Command {
  static override paths = [['login']]
  static override usage = Command.Usage({
    description: 'Sign in through the browser and store the session',
    details: `
      Opens the docs server's sign-in page (OAuth 2.0 with PKCE) and waits for the browser to come back
      to a temporary server on 127.0.0.1. The session, with its refresh token, is stored in
      ~/.config/docsctl/credentials.json (mode 0600; %APPDATA%\\docsctl on Windows).
    `,
    examples: [
      ['Sign in to the default server', 'docsctl login'],
      ['Print the URL instead of opening a browser', 'docsctl login --no-open'],
      [
        'Sign in to a self-hosted server on another port',
        'docsctl login --api-url https://docs-api.example.com --port 9000',
      ],
    ],
  })

  port = Option.String('--port', '8787', { description: 'Port of the local callback server' })
  timeout = Option.String('--timeout', '180', { description: 'Seconds to wait for the browser' })
  noOpen = Option.Boolean('--no-open', false, {
    description: 'Print the sign-in URL instead of opening a browser',
  })
  apiUrl = Option.String('--api-url', {
    description: 'API address (default: DOCSCTL_API_URL or http://localhost:8080)',
  })

  override async execute(): Promise<number> {
    const port = Number(this.port)
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new UsageError(`--port must be a whole number from 1 to 65535, not "${this.port}"`)
    const timeoutSeconds = Number(this.timeout)
    if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
      throw new UsageError(`--timeout must be a positive number of seconds, not "${this.timeout}"`)
    try {
      // An explicit --api-url wins; otherwise a previous session's server, so `login` again re-signs there.
      const apiUrl = resolveApiUrl(this.apiUrl, process.env, await readSession())
      const { user } = await signIn({
        apiUrl,
        port,
        timeoutSeconds,
        openBrowser: !this.noOpen,
        stdout: this.context.stdout,
      })
      this.context.stdout.write(`${pc.green('Signed in')} as ${user.email} on ${apiUrl}.\n`)
      return 0
    } catch (error) {
      return reportFailure(this.context, error)
    }
  }
}
