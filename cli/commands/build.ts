import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { Command, Option, UsageError } from 'clipanion'
import pc from 'picocolors'
import { type Diagnostic, formatDiagnostic } from '../../compiler/diagnostics.js'
import { MCP_PAGES_PATH } from '../../compiler/outputs/mcp-pages.js'
import { BUILD_MARKER, readSiteFiles, resolveSiteDir } from '../../lib/site-dir.js'
import { fetchRemoteSpecs } from '../remote-specs.js'

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
    `,
    examples: [
      ['Build the docs in the current folder to ./site', 'docsctl build --out site'],
      ['Build ./docs as a deployment would', 'docsctl build docs --out site --lenient'],
    ],
  })

  dir = Option.String({ required: false, name: 'dir' })
  out = Option.String('--out', 'site', { description: 'Folder to write the site to (default: ./site)' })
  lenient = Option.Boolean('--lenient', false, {
    description: 'Report unknown keys and broken links as warnings',
  })

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
    read.problems.push(...(await fetchRemoteSpecs(read.files)))
    for (const problem of read.problems) stderr.write(`${pc.yellow('warning')} ${problem}\n`)
    // Do not read an earlier build inside the docs folder back in as source.
    const outInside = relative(siteDir, outDir)
    if (outInside && !outInside.startsWith('..')) {
      for (const path of [...read.files.keys()]) if (path.startsWith(`${outInside}/`)) read.files.delete(path)
    }
    // Loaded here, not at the top: every other docsctl command starts faster without the compiler.
    const { buildSite, defaultWorkers } = await import('../../compiler/build.js')
    const result = await buildSite(read.files, {
      mode: this.lenient ? 'lenient' : 'strict',
      workers: defaultWorkers(),
    })
    printDiagnostics(result.diagnostics, stderr)
    const warnings = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'warning').length
    const errors = result.diagnostics.length - warnings
    if (!result.ok) {
      stderr.write(
        `${pc.red('✖')} Build failed: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}. Nothing was written.\n`,
      )
      return 1
    }
    await prepareOutDir(outDir)
    try {
      await writeSite(outDir, result.files)
      await writeFile(
        join(outDir, BUILD_MARKER),
        'Written by `docsctl build`: docsctl push, dev and build skip this folder when it sits inside a docs folder.\n',
      )
    } catch (error) {
      const { code, path } = error as NodeJS.ErrnoException
      stderr.write(
        `${pc.red('error')} cannot write ${path ?? outDir} (${code ?? 'write failed'}); check the --out folder\n`,
      )
      return 1
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(2)
    stdout.write(
      `${pc.green('✔')} Built ${plural(result.stats.pages, 'page')} (${plural(warnings, 'warning')}) in ${seconds} s → ${relative(process.cwd(), outDir) || '.'}/ (${plural(result.files.size, 'file')})\n`,
    )
    if (result.files.has(MCP_PAGES_PATH))
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

/** Writes every file under `outDir`: each folder made once, several files in flight at a time. */
async function writeSite(outDir: string, files: ReadonlyMap<string, Uint8Array>): Promise<void> {
  const folders = new Set<string>()
  for (const path of files.keys()) folders.add(dirname(join(outDir, path)))
  // One mkdir per folder, not per file; `recursive` makes the parents.
  for (const folder of [...folders].sort()) await mkdir(folder, { recursive: true })
  const pending = [...files]
  const writer = async (): Promise<void> => {
    for (let next = pending.pop(); next; next = pending.pop()) await writeFile(join(outDir, next[0]), next[1])
  }
  await Promise.all(Array.from({ length: CONCURRENT_WRITES }, writer))
}

/** Empties the output folder when it holds an earlier build; refuses any other non-empty folder. */
async function prepareOutDir(outDir: string): Promise<void> {
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
  await Promise.all(entries.map((entry) => rm(join(outDir, entry), { recursive: true, force: true })))
}
