/** The deployment manifest: every source file's path, sha256 and size, in a stable order. */
import { createHash } from 'node:crypto'
import type { ManifestEntry } from '../api.js'

export interface HashedSite {
  entries: ManifestEntry[]
  /** The bytes of each distinct content hash, to upload whichever the server lacks. */
  bytesByHash: Map<string, { path: string; bytes: Uint8Array }>
  totalBytes: number
}

export function hashSite(files: ReadonlyMap<string, Uint8Array>): HashedSite {
  const entries: ManifestEntry[] = []
  const bytesByHash = new Map<string, { path: string; bytes: Uint8Array }>()
  let totalBytes = 0
  for (const path of [...files.keys()].sort()) {
    const bytes = files.get(path)!
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    entries.push({ path, sha256, size: bytes.byteLength })
    if (!bytesByHash.has(sha256)) bytesByHash.set(sha256, { path, bytes })
    totalBytes += bytes.byteLength
  }
  return { entries, bytesByHash, totalBytes }
}
