/**
 * How a command ends badly: one clear paragraph on stderr and exit code 1, never a stack trace
 * (set DOCSCTL_DEBUG=1 to see one for an unexpected error).
 */
import type { BaseContext } from 'clipanion'
import pc from 'picocolors'
import { ApiError, NetworkError } from '../api.js'

/** An expected failure whose message already says what went wrong and what to do. */
export class CommandFailure extends Error {
  override readonly name = 'CommandFailure'
}

export function failureMessage(error: unknown): string {
  if (error instanceof CommandFailure || error instanceof NetworkError) return error.message
  if (error instanceof ApiError) {
    if (error.status === 429)
      return `${error.describe()}\nThe server is rate limiting requests; wait a minute and try again.`
    if (error.status >= 500)
      return `The server failed (${error.status}): ${error.describe()}\nTry again; if it keeps failing, the server's log says why.`
    return error.describe()
  }
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code
    return `Unexpected error${code ? ` (${code})` : ''}: ${error.message}`
  }
  return `Unexpected error: ${String(error)}`
}

/** Print the failure and answer the exit code. */
export function reportFailure(context: BaseContext, error: unknown): number {
  context.stderr.write(`${pc.red('Error:')} ${failureMessage(error)}\n`)
  if (process.env.DOCSCTL_DEBUG && error instanceof Error && error.stack)
    context.stderr.write(`${error.stack}\n`)
  return 1
}
