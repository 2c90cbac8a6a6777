/**
 * The build cache: rendered pages keyed by a hash of what their render depends on. The key covers
 * the compiler version, validation mode, the set of page slugs (links are checked against it), the
 * page's path and source; snippet files and referenced assets are recorded beside the result and
 * re-checked, since they are only known after rendering.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fromPackageRoot } from '../assets.js'
import type { RenderedPage } from '../content/render-page.js'
import type { SourceFiles } from '../files.js'
import type { BuildCache } from '../types.js'

export interface CacheEntry {
  page: RenderedPage
  /** Snippet path → sha256 of its bytes; asset path → "present" | "absent". */
  dependencies: Record<string, string>
}

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex')

let version: string | undefined

/**
 * The package version plus a hash of the compiled renderer (content, components, highlight), so a
 * changed compiler never reuses output of an older one, even without a version bump.
 */
export function compilerVersion(): string {
  if (version) return version
  // From the package root, not from this file: the same folder whether this code runs bundled or not.
  const compilerDir = fromPackageRoot('dist', 'compiler')
  const hash = createHash('sha256')
  for (const folder of ['content', 'components', 'highlight']) {
    let names: string[] = []
    try {
      names = readdirSync(join(compilerDir, folder), { recursive: true, encoding: 'utf8' }).sort()
    } catch {}
    for (const name of names) {
      if (!/\.(js|ts|css|json)$/.test(name)) continue
      hash.update(name).update(readFileSync(join(compilerDir, folder, name)))
    }
  }
  // Anchor ids, shared by content, components and API pages, sit beside those folders.
  for (const name of ['platform-ids.js', 'platform-ids.ts'])
    try {
      hash.update(name).update(readFileSync(join(compilerDir, name)))
    } catch {}
  const manifest = JSON.parse(readFileSync(fromPackageRoot('package.json'), 'utf8')) as {
    version?: string
  }
  version = `${manifest.version ?? '0.0.0'}+${hash.digest('hex').slice(0, 16)}`
  return version
}

export const siteKey = (mode: string, pageSlugs: readonly string[]): string =>
  sha256(`${mode}\0${[...pageSlugs].sort().join('\n')}`)

export const pageKey = (siteKeyValue: string, file: string, source: Uint8Array): string =>
  sha256(`${compilerVersion()}\0${siteKeyValue}\0${file}\0${sha256(source)}`)

export function dependencyFingerprint(page: RenderedPage, files: SourceFiles): Record<string, string> {
  const dependencies: Record<string, string> = {}
  for (const path of page.dependencies) {
    const bytes = files.get(path)
    dependencies[path] = bytes ? sha256(bytes) : 'absent'
  }
  // An asset's bytes, not only its presence: the page references it by its content's version.
  for (const path of page.assets) {
    if (path in dependencies) continue
    const bytes = files.get(path)
    dependencies[path] = bytes ? sha256(bytes) : 'absent'
  }
  return dependencies
}

/** The cached render for `key`, if every snippet and asset it used is unchanged. */
export function lookup(
  cache: BuildCache | undefined,
  key: string,
  files: SourceFiles,
): CacheEntry | undefined {
  if (!cache || cache.compilerVersion !== compilerVersion()) return undefined
  const entry = cache.entries[key] as CacheEntry | undefined
  if (!entry || typeof entry !== 'object' || !entry.page || !entry.dependencies) return undefined
  for (const [path, expected] of Object.entries(entry.dependencies)) {
    const bytes = files.get(path)
    const actual =
      expected === 'present' || expected === 'absent'
        ? bytes
          ? 'present'
          : 'absent'
        : bytes
          ? sha256(bytes)
          : 'absent'
    if (actual !== expected) return undefined
  }
  return entry
}
