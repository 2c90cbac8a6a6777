import { readFile } from 'node:fs/promises'
import { dirname, relative, resolve, sep } from 'node:path'
import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import type { Diagnostic } from '../../compiler/diagnostics.js'
import { isInteractive } from '../push/project.js'
import {
  ALLOW_SPEC_HOSTS_ENV,
  allowSpecHostOption,
  fetchNamedSpec,
  specFetchPolicy,
} from '../remote-specs.js'

export class OpenapiCheckCommand extends Command {
  static override paths = [['openapi-check']]
  static override usage = Command.Usage({
    description: 'Check an OpenAPI document as the site build reads it',
    details: `
      Reads an OpenAPI (3.0, 3.1), Swagger 2.0 or AsyncAPI document, JSON or YAML, from a file or an
      http(s) URL, with the loader the build uses: it must parse, name its version, list operations
      under \`paths\` (or webhooks or components), and every \`$ref\` must resolve. A file's \`$ref\`s to
      other local files are read from beside it; a URL's only within the document.

      The host of <file|url> is fetched because you named it; a redirect to another host is followed
      only when that host is allowed with \`--allow-spec-host <host>\` (repeatable) or
      ${ALLOW_SPEC_HOSTS_ENV}, or you answer yes in a terminal, and never to a private address.

      Prints every problem with its file, line and column (and JSON path). Exit code: 0 when the
      document loads (warnings allowed), 1 when it has errors or cannot be read.
    `,
    examples: [
      ['Check a local document', 'docsctl openapi-check openapi.yaml'],
      ['Check a published document', 'docsctl openapi-check https://api.example.com/openapi.json'],
    ],
  })

  source = Option.String({ name: 'file|url' })
  json = Option.Boolean('--json', false, { description: 'Print the result as JSON' })
  allowSpecHost = allowSpecHostOption()

  override async execute(): Promise<number> {
    const { stdout, stderr } = this.context
    const fail = (message: string) => {
      if (this.json)
        stdout.write(`${JSON.stringify({ ok: false, source: this.source, error: message }, null, 2)}\n`)
      else stderr.write(`${pc.red('error')} ${message}\n`)
      return 1
    }
    const files = new Map<string, Uint8Array>()
    let file: string
    // Site paths of the files read, shown as the person named them.
    let shown = (path: string) => path
    if (/^https?:\/\//i.test(this.source)) {
      let url: URL
      try {
        url = new URL(this.source)
      } catch {
        return fail(`"${this.source}" is not a URL; pass a file path or an http(s) URL`)
      }
      const interactive = !this.json && isInteractive(Boolean(process.env.CI))
      const policy = specFetchPolicy({ flags: this.allowSpecHost, env: process.env, interactive })
      try {
        file = url.pathname.split('/').pop() || 'openapi'
        files.set(file, await fetchNamedSpec(url, policy))
      } catch (error) {
        return fail(`cannot fetch ${this.source}: ${error instanceof Error ? error.message : String(error)}`)
      }
      shown = () => this.source
    } else {
      const absolute = resolve(this.source)
      const bytes = await readFile(absolute).catch(() => undefined)
      if (!bytes)
        return fail(`OpenAPI document "${this.source}" not found; pass a file path or an http(s) URL`)
      // Site paths are the files' absolute paths without the leading separator, so `../` refs resolve.
      file = toSitePath(absolute)
      files.set(file, bytes)
      await readLocalRefs(files, file)
      shown = (path) => relative(process.cwd(), `${sep}${path.split('/').join(sep)}`) || path
    }

    const [{ loadSpec, locateSpecPath }, { listOperations }, { formatDiagnostic, hasErrors }] =
      await Promise.all([
        import('../../compiler/openapi/load.js'),
        import('../../compiler/openapi/operations.js'),
        import('../../compiler/diagnostics.js'),
      ])
    const spec = await loadSpec(files, file)
    const decoder = new TextDecoder()
    const diagnostics: Diagnostic[] = spec.diagnostics.map((diagnostic) => {
      const text = files.get(diagnostic.file)
      const place =
        diagnostic.line === undefined && diagnostic.path && text
          ? locateSpecPath(decoder.decode(text), diagnostic.path)
          : undefined
      return { ...diagnostic, ...place, file: shown(diagnostic.file) }
    })
    const ok = !hasErrors(diagnostics)
    const document = spec.document
    const version = document
      ? typeof document.openapi === 'string'
        ? `OpenAPI ${document.openapi}`
        : typeof document.swagger === 'string'
          ? `Swagger ${document.swagger}`
          : `AsyncAPI ${String(document.asyncapi)}`
      : undefined
    const operations = document && typeof document.asyncapi !== 'string' ? listOperations(document).length : 0

    if (this.json) {
      stdout.write(
        `${JSON.stringify({ ok, source: this.source, version, operations, diagnostics }, null, 2)}\n`,
      )
      return ok ? 0 : 1
    }
    for (const diagnostic of diagnostics) {
      const label = diagnostic.severity === 'error' ? pc.red('error') : pc.yellow('warning')
      ;(diagnostic.severity === 'error' ? stderr : stdout).write(`${label} ${formatDiagnostic(diagnostic)}\n`)
    }
    if (!ok) {
      const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length
      stderr.write(`${pc.red('✖')} ${this.source}: ${errors} error${errors === 1 ? '' : 's'}\n`)
      return 1
    }
    stdout.write(
      `${pc.green('✔')} ${this.source}: ${version}, ${operations} operation${operations === 1 ? '' : 's'}\n`,
    )
    return 0
  }
}

const toSitePath = (absolute: string) => absolute.split(sep).filter(Boolean).join('/')

/** Reads the local files `$ref`s name, transitively, into `files` (as their site paths). */
async function readLocalRefs(files: Map<string, Uint8Array>, start: string): Promise<void> {
  const decoder = new TextDecoder()
  const queue = [start]
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const text = decoder.decode(files.get(next))
    for (const match of text.matchAll(/["']?\$ref["']?\s*:\s*["']?([^"'#\s,}]+)/g)) {
      const target = match[1]!
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
      const absolute = resolve(dirname(`${sep}${next.split('/').join(sep)}`), decodeURIComponent(target))
      const path = toSitePath(absolute)
      if (files.has(path)) continue
      const bytes = await readFile(absolute).catch(() => undefined)
      if (!bytes) continue // load.ts reports it, with the $ref's place
      files.set(path, bytes)
      queue.push(path)
    }
  }
}
