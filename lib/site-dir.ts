/**
 * Finding the docs directory and reading it into the compiler's input (path → bytes). `validate`,
 * `build`, `dev` and `push` all read a site the same way, so what validates is what deploys.
 */
import { existsSync } from 'node:fs'
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import ignore, { type Ignore } from 'ignore'

/** Where `docsctl` looks for docs.json when no directory is given, in order. */
export const SITE_DIR_CANDIDATES = ['.', 'docs', join('apps', 'docs')] as const

/**
 * The docs directory: `arg` when given; otherwise the first of the current directory, `./docs` and
 * `./apps/docs` that holds a docs.json; otherwise the current directory.
 */
export function resolveSiteDir(arg?: string, cwd: string = process.cwd()): string {
  if (arg !== undefined && arg !== '') return resolve(cwd, arg)
  for (const candidate of SITE_DIR_CANDIDATES) {
    const dir = resolve(cwd, candidate)
    if (existsSync(join(dir, 'docs.json'))) return dir
  }
  return resolve(cwd)
}

/**
 * The folders `resolveSiteDir(arg)` looked in for docs.json, as shown to the user: the one given, or
 * each candidate (`.`, `docs`, `apps/docs`).
 */
export function siteDirsTried(arg?: string, cwd: string = process.cwd()): string[] {
  if (arg !== undefined && arg !== '') return [displayPath(resolve(cwd, arg), cwd)]
  return SITE_DIR_CANDIDATES.map((candidate) => displayPath(resolve(cwd, candidate), cwd))
}

/**
 * The compiler says docs.json is missing from the folder it was given; the command knows which
 * folders it looked in. Rewrites that diagnostic to name them, and what to do.
 */
export function explainMissingConfig<T extends { rule: string; message: string }>(
  diagnostics: readonly T[],
  arg?: string,
  cwd: string = process.cwd(),
): T[] {
  const tried = siteDirsTried(arg, cwd)
  const where =
    tried.length === 1 ? `in ${tried[0]}` : `in any of ${tried.slice(0, -1).join(', ')} or ${tried.at(-1)}`
  return diagnostics.map((diagnostic) =>
    diagnostic.rule === 'missing-config' && diagnostic.message.startsWith('docs.json not found at the root')
      ? {
          ...diagnostic,
          message: `docs.json not found ${where}; pass the folder that holds it, or create one with \`docsctl new\``,
        }
      : diagnostic,
  )
}

export interface SiteFilesRead {
  /** POSIX relative path → bytes. */
  files: Map<string, Uint8Array>
  /** Entries that were skipped, each with the reason, for the command to print. */
  problems: string[]
  /** Folders skipped because they hold the output of `docsctl build` (they are not sources). */
  buildOutputs: string[]
}

/**
 * The file `docsctl build` writes into its output folder, so that a build made inside a docs folder
 * is never read back in as source (and never uploaded by `push`).
 */
export const BUILD_MARKER = '.docsctl-build'

/** Files read at once: enough to keep the disk busy, far below the open-files limit. */
const READ_CONCURRENCY = 64

/** Runs at most `limit` of the given tasks at a time. */
function limiter(limit: number) {
  let active = 0
  const waiting: (() => void)[] = []
  return async <T>(task: () => Promise<T>): Promise<T> => {
    // A finishing task hands its slot straight to the next waiting one.
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve))
    else active++
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else active--
    }
  }
}

/** Read errors that mean "this entry is gone or unreadable", not a bug. */
const isFsError = (error: unknown): error is NodeJS.ErrnoException =>
  error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string'

/**
 * Every file under `dir`, skipping entries whose names start with `.`, `node_modules`, and what
 * `.docsignore` (gitignore syntax) lists. Symlinks are followed only when they stay inside `dir`.
 */
export async function readSiteFiles(dir: string): Promise<SiteFilesRead> {
  const files = new Map<string, Uint8Array>()
  const problems: string[] = []
  const buildOutputs: string[] = []
  const root = await realpath(dir)
  const rules = await loadIgnore(root)
  const visited = new Set<string>([root])
  const limited = limiter(READ_CONCURRENCY)

  const isInside = (path: string) => path === root || path.startsWith(root + sep)

  const walk = async (absolute: string, relativeDir: string): Promise<void> => {
    const entries = await readdir(absolute, { withFileTypes: true })
    if (relativeDir && entries.some((entry) => entry.name === BUILD_MARKER && entry.isFile())) {
      buildOutputs.push(relativeDir)
      return
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.name.startsWith('.') || entry.name === 'node_modules') return
        const path = relativeDir ? `${relativeDir}/${entry.name}` : entry.name
        const full = join(absolute, entry.name)
        try {
          let target = full
          let isDirectory = entry.isDirectory()
          if (entry.isSymbolicLink()) {
            target = await realpath(full)
            if (!isInside(target)) {
              problems.push(`${path}: skipped, a symlink pointing outside the docs directory`)
              return
            }
            isDirectory = (await stat(target)).isDirectory()
          } else if (!entry.isFile() && !isDirectory) {
            return
          }
          if (rules.ignores(isDirectory ? `${path}/` : path)) return
          if (isDirectory) {
            // A symlinked directory may lead back to one already read.
            const real = entry.isSymbolicLink() ? target : await realpath(full)
            if (visited.has(real)) return
            visited.add(real)
            await walk(full, path)
            return
          }
          files.set(path, new Uint8Array(await limited(() => readFile(target))))
        } catch (error) {
          if (!isFsError(error)) throw error
          problems.push(
            `${path}: skipped, ${error.code === 'EACCES' ? 'permission denied' : (error.code ?? 'unreadable')}`,
          )
        }
      }),
    )
  }
  await walk(root, '')
  // Stable order whatever order the reads finished in.
  const sorted = new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  problems.sort()
  buildOutputs.sort()
  return { files: sorted, problems, buildOutputs }
}

/**
 * Whether `readSiteFiles(dir)` would read the file at `path` (POSIX, relative to `dir`), under the
 * `.docsignore` as it is now: `docsctl dev` checks each changed file with it.
 */
export async function loadSiteFileFilter(dir: string): Promise<(path: string) => boolean> {
  const root = await realpath(dir)
  const rules = await loadIgnore(root)
  const segmentsOf = (path: string) => path.split('/')
  // A folder that holds a build's output, at any depth above the file (checked when the file changes).
  const inBuildOutput = (path: string) =>
    segmentsOf(path)
      .slice(0, -1)
      .some((_, index, folders) => existsSync(join(root, ...folders.slice(0, index + 1), BUILD_MARKER)))
  return (path) =>
    !segmentsOf(path).some((segment) => segment.startsWith('.') || segment === 'node_modules') &&
    !rules.ignores(path) &&
    !inBuildOutput(path)
}

async function loadIgnore(root: string): Promise<Ignore> {
  const rules = ignore()
  try {
    const info = await lstat(join(root, '.docsignore'))
    if (info.isFile()) rules.add(await readFile(join(root, '.docsignore'), 'utf8'))
  } catch (error) {
    if (!isFsError(error)) throw error
  }
  return rules
}

/** A path relative to the current directory, for messages: `docs` rather than `/home/me/site/docs`. */
export function displayPath(dir: string, cwd: string = process.cwd()): string {
  const shown = relative(cwd, dir)
  return shown === '' ? '.' : shown.startsWith('..') ? dir : shown
}

/** The docs folder a command was given (or the first found), how to show it, and whether it is a folder. */
export async function locateSiteDir(
  given: string | undefined,
): Promise<{ dir: string; shown: string; isDirectory: boolean }> {
  const dir = resolveSiteDir(given)
  const isDirectory = await stat(dir).then(
    (info) => info.isDirectory(),
    () => false,
  )
  return { dir, shown: displayPath(dir), isDirectory }
}
