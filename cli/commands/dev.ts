import { Command, Option, UsageError } from 'clipanion'
import pc from 'picocolors'
import { resolveSiteDir } from '../../lib/site-dir.js'
import type { startDevServer } from '../dev/server.js'
import { isInteractive } from '../push/project.js'
import { ALLOW_SPEC_HOSTS_ENV, allowSpecHostOption, specFetchPolicy } from '../remote-specs.js'

export class DevCommand extends Command {
  static override paths = [['dev']]
  static override usage = Command.Usage({
    description: 'Preview the site locally with live reload',
    details: `
      Serves the docs folder at http://localhost:3000 (or \`--port\`), compiling each page when it is
      first opened, so even a large site is visible at once. Saving a page, snippet or docs.json
      reloads the open tab. Needs no sign-in and no network. While docs.json is invalid, the preview
      shows its problems and recovers when the file is fixed. A page with errors shows them as
      \`docsctl validate\` does (file:line and the fix) in a panel over the page as it last built
      without errors.

      OpenAPI documents that docs.json names by URL are fetched only from hosts you allow with
      \`--allow-spec-host <host>\` (repeatable) or ${ALLOW_SPEC_HOSTS_ENV}; in a terminal docsctl asks
      about any other host, elsewhere it leaves those pages out and says which flag allows the host. A
      private or loopback host is fetched only when named that way, and no redirect to one is followed.
    `,
    examples: [
      ['Preview the docs in the current folder (or ./docs, ./apps/docs)', 'docsctl dev'],
      ['Preview ./docs on port 4000 without opening a browser', 'docsctl dev docs --port 4000 --no-open'],
    ],
  })

  port = Option.String('--port', '3000', { description: 'Port to listen on (default: 3000)' })
  dirOption = Option.String('--dir', {
    description: 'The docs folder, as [dir] also takes it (default: ., ./docs or ./apps/docs)',
  })
  dir = Option.String({ required: false, name: 'dir' })
  noOpen = Option.Boolean('--no-open', false, { description: 'Do not open a browser tab' })
  allowSpecHost = allowSpecHostOption()

  override async execute(): Promise<number> {
    const port = Number(this.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port must be a whole number from 0 to 65535, not "${this.port}"`)
    if (this.dir !== undefined && this.dirOption !== undefined && this.dir !== this.dirOption)
      throw new UsageError(
        `pass the docs folder once: [dir] is "${this.dir}" and --dir is "${this.dirOption}"`,
      )
    const dir = resolveSiteDir(this.dir ?? this.dirOption)
    const log = (line: string) => {
      const colour = line.startsWith('error')
        ? pc.red
        : line.startsWith('warning')
          ? pc.yellow
          : (text: string) => text
      this.context.stdout.write(`${colour(line)}\n`)
    }
    let server: Awaited<ReturnType<typeof startDevServer>>
    try {
      const { startDevServer } = await import('../dev/server.js')
      const specs = specFetchPolicy({
        flags: this.allowSpecHost,
        env: process.env,
        interactive: isInteractive(Boolean(process.env.CI)),
      })
      server = await startDevServer({ dir, port, log, specs })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      const message =
        code === 'EADDRINUSE' ? `port ${port} is in use; pass another with --port` : (error as Error).message
      this.context.stderr.write(`${pc.red('error')} ${message}\n`)
      return 1
    }
    this.context.stdout.write(
      `${pc.green('➜')} Previewing ${dir} at ${pc.cyan(server.url)} (Ctrl-C to stop)\n`,
    )
    if (!this.noOpen) import('open').then(({ default: open }) => open(server.url)).catch(() => undefined)
    await new Promise<void>((resolve) => {
      const stop = () => resolve()
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    })
    await server.close()
    return 0
  }
}
