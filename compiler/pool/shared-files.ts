/** Packs a site into SharedArrayBuffers (copied once) and unpacks it as zero-copy views. */
import { randomUUID } from 'node:crypto'
import type { ValidationMode } from '../config/types.js'
import type { SourceFiles } from '../files.js'
import type { SharedSite, SiteIndex } from './protocol.js'

export function packFiles(files: SourceFiles): {
  buffer: SharedArrayBuffer
  layout: [string, number, number][]
} {
  let total = 0
  for (const bytes of files.values()) total += bytes.byteLength
  const buffer = new SharedArrayBuffer(Math.max(total, 1))
  const view = new Uint8Array(buffer)
  const layout: [string, number, number][] = []
  let offset = 0
  for (const [path, bytes] of files) {
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
): SharedSite {
  const index: SiteIndex = { layout, pageSlugs: [...pageSlugs] }
  const json = new TextEncoder().encode(JSON.stringify(index))
  const indexBuffer = new SharedArrayBuffer(json.byteLength)
  new Uint8Array(indexBuffer).set(json)
  return { id: randomUUID(), files, index: indexBuffer, mode }
}

export function readSiteIndex(site: SharedSite): SiteIndex {
  // TextDecoder refuses shared memory views; one copy per site per worker.
  return JSON.parse(new TextDecoder().decode(new Uint8Array(site.index).slice())) as SiteIndex
}
