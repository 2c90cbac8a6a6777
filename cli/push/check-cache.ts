/**
 * The local check cache of `docsctl push`: the build's page cache (rendered bodies keyed by a hash of
 * page source, snippets, config and compiler version) kept between pushes, so a page whose content is
 * unchanged is not rendered again to check it. One file per site folder under the user's cache
 * folder (`DOCSCTL_CACHE_DIR`, else `$XDG_CACHE_HOME/docsctl`, else `~/.cache/docsctl`), readable by
 * the user alone: it holds rendered pages of what may be private docs.
 */
import { createHash } from 'node:crypto'
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { BuildCache } from '../../compiler/types.js'

export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DOCSCTL_CACHE_DIR) return resolve(env.DOCSCTL_CACHE_DIR)
  const base = env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache')
  return join(base, 'docsctl')
}

/** The cache file of the site in `siteDir`: named by a hash of its absolute path. */
export function checkCacheFile(siteDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = createHash('sha256').update(resolve(siteDir)).digest('hex').slice(0, 32)
  return join(cacheRoot(env), 'checks', `${key}.json`)
}

/** The cache an earlier push left, or `undefined` when there is none or it cannot be read. */
export async function loadCheckCache(file: string): Promise<BuildCache | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'))
    if (typeof parsed !== 'object' || parsed === null) return undefined
    const { compilerVersion, entries } = parsed as Record<string, unknown>
    if (typeof compilerVersion !== 'string' || typeof entries !== 'object' || entries === null)
      return undefined
    return { compilerVersion, entries: entries as Record<string, unknown> }
  } catch {
    // No cache yet, or a damaged one: the check renders every page and writes a new one.
    return undefined
  }
}

/**
 * Replace the cache file whole (written beside it, then renamed), folder 0700 and file 0600. A cache
 * that cannot be written is not a reason to fail a push: answers the reason instead of throwing.
 */
export async function saveCheckCache(file: string, cache: BuildCache): Promise<string | undefined> {
  const dir = join(file, '..')
  const partial = `${file}.${process.pid}.partial`
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 })
    await chmod(dir, 0o700)
    await writeFile(
      partial,
      JSON.stringify({ compilerVersion: cache.compilerVersion, entries: cache.entries }),
      { mode: 0o600 },
    )
    await rename(partial, file)
    return undefined
  } catch (error) {
    await rm(partial, { force: true }).catch(() => {})
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message
  }
}
