/** Packs a file map into one SharedArrayBuffer (copied once) and unpacks it as zero-copy views. */
import type { SourceFiles } from '../files.js'

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
