/** Packs a site into SharedArrayBuffers (copied once) and unpacks it as zero-copy views. */
import { randomUUID } from 'node:crypto'
import type { ValidationMode } from '../config/types.js'
import type { SourceFiles } from '../files.js'
import type { SharedSite, SiteChanges, SiteIndex } from './protocol.js'

/** The files in one SharedArrayBuffer, every byte. */
export function packFiles(files: SourceFiles): {
  buffer: SharedArrayBuffer
  layout: [string, number, number][]
} {
  const entries = [...files]
  let total = 0
  for (const [, bytes] of entries) total += bytes.byteLength
  const buffer = new SharedArrayBuffer(Math.max(total, 1))
  const view = new Uint8Array(buffer)
  const layout: [string, number, number][] = []
  let offset = 0
  for (const [path, bytes] of entries) {
    view.set(bytes, offset)
    layout.push([path, offset, bytes.byteLength])
    offset += bytes.byteLength
  }
  return { buffer, layout }
}

export function unpackFiles(
  buffer: SharedArrayBuffer,
  layout: readonly [string, number, number][],
): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>()
  for (const [path, offset, length] of layout) files.set(path, new Uint8Array(buffer, offset, length))
  return files
}

/**
 * A site for render threads, packed once, every byte: pages reference an author's files with the
 * version of their bytes (`?v=`, content/asset-version.ts), so media must be the real bytes here, as in
 * the server's build (packed empty, a CLI build versioned every image as the empty file's hash).
 */
export function shareSite(
  files: SourceFiles,
  pageSlugs: ReadonlySet<string>,
  mode: ValidationMode,
): SharedSite {
  const { buffer, layout } = packFiles(files)
  return sharedSite(buffer, layout, pageSlugs, mode)
}

/** A site whose files are packed already (the server packs them before its build task starts). */
export function sharedSite(
  files: SharedArrayBuffer,
  layout: [string, number, number][],
  pageSlugs: Iterable<string>,
  mode: ValidationMode,
  changes?: SiteChanges,
): SharedSite {
  const index: SiteIndex = { layout, pageSlugs: [...pageSlugs] }
  if (changes) {
    index.overlayLayout = changes.layout
    index.removed = changes.removed
  }
  const json = new TextEncoder().encode(JSON.stringify(index))
  const indexBuffer = new SharedArrayBuffer(json.byteLength)
  new Uint8Array(indexBuffer).set(json)
  return {
    id: randomUUID(),
    files,
    ...(changes ? { overlay: changes.buffer } : {}),
    index: indexBuffer,
    mode,
  }
}

/**
 * The files of `current` that are not the very bytes `given` holds (added or rewritten by the build
 * before rendering), packed, and the paths of `given` it dropped: what a thread that holds only
 * `given` needs to render `current`'s pages.
 */
export function siteChanges(given: SourceFiles, current: SourceFiles): SiteChanges {
  const changed = new Map<string, Uint8Array>()
  for (const [path, bytes] of current) if (given.get(path) !== bytes) changed.set(path, bytes)
  const removed = [...given.keys()].filter((path) => !current.has(path))
  return { ...packFiles(changed), removed }
}

/** Every file of a shared site, its overlay laid over its files. */
export function siteFiles(site: SharedSite, index: SiteIndex): Map<string, Uint8Array> {
  const files = unpackFiles(site.files, index.layout)
  if (site.overlay && index.overlayLayout)
    for (const [path, bytes] of unpackFiles(site.overlay, index.overlayLayout)) files.set(path, bytes)
  for (const path of index.removed ?? []) files.delete(path)
  return files
}

export function readSiteIndex(site: SharedSite): SiteIndex {
  // TextDecoder refuses shared memory views; one copy per site per worker.
  return JSON.parse(new TextDecoder().decode(new Uint8Array(site.index).slice())) as SiteIndex
}
