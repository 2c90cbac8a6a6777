import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { Command, Option, UsageError } from 'clipanion'
import pc from 'picocolors'
import { type Diagnostic, formatDiagnostic } from '../../compiler/diagnostics.js'
import { withFileUrls } from '../../compiler/outputs/file-urls.js'
import { MCP_PAGES_PATH } from '../../compiler/outputs/mcp-pages.js'
import { BUILD_MARKER, explainMissingConfig, readSiteFiles, resolveSiteDir } from '../../lib/site-dir.js'
import { isInteractive } from '../push/project.js'
import {
  ALLOW_SPEC_HOSTS_ENV,
  allowSpecHostOption,
  fetchRemoteSpecs,
  specFetchPolicy,
} from '../remote-specs.js'

export class BuildCommand extends Command {
  static override paths = [['build']]
  static override usage = Command.Usage({
    description: 'Build the site to a folder of static files',
    details: `
      Compiles every page with the same compiler a deployment uses and writes the result to \`--out\`,
      ready for any static host (or an air-gapped network). Strict by default: unknown docs.json keys
      and broken links are errors. \`--lenient\` builds as a deployment would, reporting them as
      warnings. Exits with code 1 when any error remains. An existing output folder is replaced only
      when it holds an earlier build. The site's MCP server (\`/mcp\`) needs docs-server or
      \`docsctl dev\`: a static host serves the pages, search and llms.txt, but no \`/mcp\`.

      The pages link to folders (\`guide/setup/\`), which a web server answers with their index.html;
      opened from \`file://\` a browser shows a folder listing instead. \`--file-urls\` makes every
      link name its index.html, for reading the build from disk (search still needs a server).

      OpenAPI documents that docs.json names by URL are fetched only from hosts you allow with
      \`--allow-spec-host <host>\` (repeatable) or ${ALLOW_SPEC_HOSTS_ENV}; in a terminal docsctl asks
      about any other host, elsewhere it leaves those pages out and says which flag allows the host. A
      private or loopback host is fetched only when named that way, and no redirect to one is followed.
    `,
    examples: [
      ['Build the docs in the current folder to ./site', 'docsctl build --out site'],
      ['Build ./docs as a deployment would', 'docsctl build docs --out site --lenient'],
      ['Build to open from disk, without a web server', 'docsctl build --file-urls'],
      [
        'Build in CI with the OpenAPI document docs.json names on api.example.com',
        'docsctl build --allow-spec-host api.example.com',
      ],
    ],
  })

  dir = Option.String({ required: false, name: 'dir' })
  out = Option.String('--out', 'site', { description: 'Folder to write the site to (default: ./site)' })
  lenient = Option.Boolean('--lenient', false, {
    description: 'Report unknown keys and broken links as warnings',
  })
  fileUrls = Option.Boolean('--file-urls', false, {
    description: 'Link index.html files, to open the build from file:// without a web server',
  })
  allowSpecHost = allowSpecHostOption()

  override async execute(): Promise<number> {
    const { stdout, stderr } = this.context
    const siteDir = resolveSiteDir(this.dir)
    const outDir = resolve(this.out)
    if (outDir === resolve(siteDir))
      throw new UsageError('--out must not be the docs folder itself; choose another folder')
    const started = performance.now()
    const read = await readSiteFiles(siteDir).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(
        `cannot read the docs folder ${siteDir}: ${error.code === 'ENOENT' ? 'it does not exist' : error.message}`,
      )
    })
    const policy = specFetchPolicy({
      flags: this.allowSpecHost,
      env: process.env,
      interactive: isInteractive(Boolean(process.env.CI)),
    })
    read.problems.push(...(await fetchRemoteSpecs(read.files, policy)))
    for (const problem of read.problems) stderr.write(`${pc.yellow('warning')} ${problem}\n`)
    // Do not read an earlier build inside the docs folder back in as source.
    const outInside = relative(siteDir, outDir)
    if (outInside && !outInside.startsWith('..')) {
      for (const path of [...read.files.keys()]) if (path.startsWith(`${outInside}/`)) read.files.delete(path)
    }
    await checkOutDir(outDir)
    // Loaded here, not at the top: every other docsctl command starts faster without the compiler.
    const { buildSite, defaultWorkers } = await import('../../compiler/build.js')
    // Files are written as they are made, into a folder beside --out that takes its place once the
    // build succeeds: the site is never held in memory whole, and a failed build leaves --out as it was.
    const staging = `${outDir}.partial-${process.pid}`
    await rm(staging, { recursive: true, force: true })
    const writer = new SiteWriter(staging)
    let result: Awaited<ReturnType<typeof buildSite>>
    try {
      result = await buildSite(read.files, {
        mode: this.lenient ? 'lenient' : 'strict',
        workers: defaultWorkers(),
        onFile: (path, bytes) =>
          writer.write(
            path,
            this.fileUrls && path.endsWith('.html')
              ? new TextEncoder().encode(withFileUrls(new TextDecoder().decode(bytes)))
              : bytes,
          ),
      })
      await writer.finished()
      if (result.ok)
        await writeFile(
          join(staging, BUILD_MARKER),
          'Written by `docsctl build`: docsctl push, dev and build skip this folder when it sits inside a docs folder.\n',
        )
    } catch (error) {
      await rm(staging, { recursive: true, force: true })
      const { code, path } = error as NodeJS.ErrnoException
      if (!code) throw error
      stderr.write(`${pc.red('error')} cannot write ${path ?? outDir} (${code}); check the --out folder\n`)
      return 1
    }
    printDiagnostics(explainMissingConfig(result.diagnostics, this.dir), stderr)
    const warnings = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'warning').length
    const errors = result.diagnostics.length - warnings
    if (!result.ok) {
      await rm(staging, { recursive: true, force: true })
      stderr.write(
        `${pc.red('✖')} Build failed: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}. Nothing was written.\n`,
      )
      return 1
    }
    try {
      await replaceOutDir(outDir, staging)
    } catch (error) {
      await rm(staging, { recursive: true, force: true })
      const { code, path } = error as NodeJS.ErrnoException
      stderr.write(
        `${pc.red('error')} cannot write ${path ?? outDir} (${code ?? 'write failed'}); check the --out folder\n`,
      )
      return 1
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(2)
    stdout.write(
      `${pc.green('✔')} Built ${plural(result.stats.pages, 'page')} (${plural(warnings, 'warning')}) in ${seconds} s → ${relative(process.cwd(), outDir) || '.'}/ (${plural(writer.written, 'file')})\n`,
    )
    for (const notice of result.notices ?? []) stdout.write(`  ${notice}\n`)
    const where = relative(process.cwd(), outDir) || '.'
    stdout.write(
      pc.dim(
        this.fileUrls
          ? `  Open ${join(where, 'index.html')} in a browser; its links name index.html files (search needs a web server)\n`
          : `  Serve ${where}/ with a web server (e.g. npx serve ${where}): opened from file:// its links lead to folder listings, unless built with --file-urls\n`,
      ),
    )
    if (writer.wrote(MCP_PAGES_PATH))
      stdout.write(
        pc.dim(
          '  /mcp (the MCP server for AI tools) needs docs-server or docsctl dev; a static host serves no /mcp (mcp.enabled: false in docs.json turns it off)\n',
        ),
      )
    return 0
  }
}

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`

export function printDiagnostics(diagnostics: readonly Diagnostic[], stream: NodeJS.WritableStream): void {
  for (const diagnostic of diagnostics) {
    const label = diagnostic.severity === 'error' ? pc.red('error') : pc.yellow('warning')
    stream.write(`${label} ${formatDiagnostic(diagnostic)} ${pc.dim(`(${diagnostic.rule})`)}\n`)
  }
}

/** Files written at once: enough to keep the disk busy, few enough to stay under open-file limits. */
const CONCURRENT_WRITES = 16

/**
 * Writes a site's files under a folder as the build hands them over: each folder made once, several
 * files in flight at a time, and the build held back while that many are. The first error is
 * thrown by the next write or by `finished()`.
 */
class SiteWriter {
  written = 0
  readonly #root: string
  readonly #folders = new Map<string, Promise<unknown>>()
  readonly #inFlight = new Set<Promise<void>>()
  readonly #paths = new Set<string>()
  #error: unknown

  constructor(root: string) {
    this.#root = root
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    if (this.#error) throw this.#error
    const target = join(this.#root, path)
    const folder = dirname(target)
    let made = this.#folders.get(folder)
    // `recursive` makes the parents too, and tolerates a folder made meanwhile.
    if (!made) {
      made = mkdir(folder, { recursive: true })
      this.#folders.set(folder, made)
    }
    const pending: Promise<void> = made
      .then(() => writeFile(target, bytes))
      .then(
        () => {
          this.written++
          this.#paths.add(path)
        },
        (error: unknown) => {
          this.#error ??= error
        },
      )
      .finally(() => this.#inFlight.delete(pending))
    this.#inFlight.add(pending)
    if (this.#inFlight.size >= CONCURRENT_WRITES) await Promise.race(this.#inFlight)
  }

  /** Waits for every write; throws the first one that failed. */
  async finished(): Promise<void> {
    await Promise.all(this.#inFlight)
    if (this.#error) throw this.#error
  }

  wrote(path: string): boolean {
    return this.#paths.has(path)
  }
}

/** Refuses an output folder that is a file, or holds anything but an earlier build. */
async function checkOutDir(outDir: string): Promise<void> {
  const existing = await stat(outDir).catch(() => undefined)
  if (existing && !existing.isDirectory()) throw new UsageError(`${outDir} is a file; --out needs a folder`)
  const entries = await readdir(outDir).catch(() => undefined)
  if (!entries || entries.length === 0) return
  const earlierBuild =
    entries.includes(BUILD_MARKER) ||
    (entries.includes('404.html') && (await stat(join(outDir, '_assets')).catch(() => undefined)))
  if (!earlierBuild)
    throw new UsageError(
      `${outDir} is not empty and does not hold an earlier build; choose an empty or new folder`,
    )
}

/** Empties the output folder (an earlier build, checked before building) and moves the new build in. */
async function replaceOutDir(outDir: string, staging: string): Promise<void> {
  await mkdir(outDir, { recursive: true })
  const earlier = await readdir(outDir)
  await Promise.all(earlier.map((entry) => rm(join(outDir, entry), { recursive: true, force: true })))
  for (const entry of await readdir(staging)) await rename(join(staging, entry), join(outDir, entry))
  await rm(staging, { recursive: true, force: true })
}
