/**
 * A site manifest in the blob store: written as a head and its shards, read whole by everything but
 * serving (garbage collection, previews, insights, the next build), which reads one shard at a time
 * (server/sites/site-files.ts). site-manifest.ts has the format.
 */
import type { BlobStore } from '../blobs/store.js'
import {
  filesPerShard,
  headPaths,
  type SiteFileEntry,
  type SiteManifest,
  type SiteManifestHead,
  shardOf,
} from './site-manifest.js'

export type ManifestFiles = Record<string, SiteFileEntry>

/** A stored manifest's head, as read; a version 1 manifest is a head with every file and no shard. */
export interface ReadManifestHead {
  contentSecurityPolicy?: string
  files: ManifestFiles
  shards: string[]
}

/** Stores `manifest` as a head and its shards and returns the head's sha256, the one a deployment names. */
export async function storeSiteManifest(
  blobs: Pick<BlobStore, 'put'>,
  manifest: SiteManifest,
): Promise<string> {
  const paths = Object.keys(manifest.files).filter((path) => !headPaths.has(path))
  const count = Math.max(1, Math.ceil(paths.length / filesPerShard))
  // No prototype, so a path named `__proto__` is an entry like any other.
  const shards = Array.from({ length: count }, () => Object.create(null) as ManifestFiles)
  for (const path of paths) shards[shardOf(path, count)]![path] = manifest.files[path]!
  const files = Object.create(null) as ManifestFiles
  for (const path of headPaths) if (Object.hasOwn(manifest.files, path)) files[path] = manifest.files[path]!
  const head: SiteManifestHead = {
    version: 2,
    ...(manifest.contentSecurityPolicy === undefined
      ? {}
      : { contentSecurityPolicy: manifest.contentSecurityPolicy }),
    files,
    shards: await Promise.all(shards.map((shard) => blobs.put(Buffer.from(JSON.stringify(shard))))),
  }
  return blobs.put(Buffer.from(JSON.stringify(head)))
}

/** Parses a manifest's head blob, of either version. */
export function parseManifestHead(bytes: Buffer): ReadManifestHead {
  const stored = JSON.parse(bytes.toString('utf8')) as SiteManifest | SiteManifestHead
  return {
    ...(stored.contentSecurityPolicy === undefined
      ? {}
      : { contentSecurityPolicy: stored.contentSecurityPolicy }),
    files: Object.setPrototypeOf(stored.files, null) as ManifestFiles,
    shards: stored.version === 2 ? stored.shards : [],
  }
}

/** Parses a shard's blob: path → entry, with no prototype, so `/__proto__` names no file. */
export function parseManifestShard(bytes: Buffer): ManifestFiles {
  return Object.setPrototypeOf(JSON.parse(bytes.toString('utf8')), null) as ManifestFiles
}

/**
 * The whole manifest named `sha256`, with the blobs it is stored in besides its head (`parts`, for
 * garbage collection); undefined when the store has lost the head or any shard.
 */
export async function readSiteManifest(
  blobs: Pick<BlobStore, 'get'>,
  sha256: string,
): Promise<{ manifest: SiteManifest; parts: string[] } | undefined> {
  const bytes = await blobs.get(sha256)
  if (!bytes) return undefined
  const head = parseManifestHead(bytes)
  const policy =
    head.contentSecurityPolicy === undefined ? {} : { contentSecurityPolicy: head.contentSecurityPolicy }
  const entries = Object.entries(head.files)
  for (const shard of head.shards) {
    const shardBytes = await blobs.get(shard)
    if (!shardBytes) return undefined
    entries.push(...Object.entries(parseManifestShard(shardBytes)))
  }
  // By path, as the build lists them, so equal sites read back equal.
  entries.sort(([a], [b]) => a.localeCompare(b))
  const files = Object.create(null) as ManifestFiles
  for (const [path, entry] of entries) files[path] = entry
  return { manifest: { version: 1, files, ...policy }, parts: head.shards }
}
