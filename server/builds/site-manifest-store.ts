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

/** Entries of a manifest part, looked up by path. */
export interface ManifestEntries {
  get(path: string): SiteFileEntry | undefined
  /** Whether there is an entry at `path`: `get` without parsing the entry. */
  has(path: string): boolean
  /** Every entry, in the order stored. */
  all(): [string, SiteFileEntry][]
  /** Bytes held. */
  readonly bytes: number
}

const newline = 0x0a

/**
 * Entries stored one a line, `\n[path,entry]` in JSON: a lookup finds the line that starts with its
 * path (no line holds a raw newline, so only a line's start can match) and parses that line alone.
 */
export class EntryLines implements ManifestEntries {
  /** `text` is the part's bytes from its first entry's newline on. */
  constructor(private readonly text: Buffer) {}

  get bytes(): number {
    return this.text.length
  }

  get(path: string): SiteFileEntry | undefined {
    const at = this.#lineOf(path)
    if (at === -1) return undefined
    const end = this.text.indexOf(newline, at + 1)
    const [, entry] = JSON.parse(this.text.toString('utf8', at + 1, end === -1 ? undefined : end)) as [
      string,
      SiteFileEntry,
    ]
    return entry
  }

  has(path: string): boolean {
    return this.#lineOf(path) !== -1
  }

  /** Where the line of `path` starts (its newline), or -1. */
  #lineOf(path: string): number {
    return this.text.indexOf(`\n[${JSON.stringify(path)},`)
  }

  all(): [string, SiteFileEntry][] {
    return this.text
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as [string, SiteFileEntry])
  }
}

/** A version 1 manifest's files: one parsed object, with no prototype so `/__proto__` names no file. */
class EntryRecord implements ManifestEntries {
  readonly #files: Record<string, SiteFileEntry>
  constructor(
    files: Record<string, SiteFileEntry>,
    readonly bytes: number,
  ) {
    this.#files = Object.setPrototypeOf(files, null) as Record<string, SiteFileEntry>
  }

  get(path: string): SiteFileEntry | undefined {
    return Object.hasOwn(this.#files, path) ? this.#files[path] : undefined
  }

  has(path: string): boolean {
    return Object.hasOwn(this.#files, path)
  }

  all(): [string, SiteFileEntry][] {
    return Object.entries(this.#files)
  }
}

/** Entries as lines, sorted by path, each line starting with its newline. */
function entryLines(entries: [string, SiteFileEntry][]): string {
  return entries
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map((entry) => `\n${JSON.stringify(entry)}`)
    .join('')
}

/** A stored manifest's head, as read; a version 1 manifest is a head with every file and no shard. */
export interface ReadManifestHead {
  contentSecurityPolicy?: string
  files: ManifestEntries
  shards: string[]
}

/** Stores `manifest` as a head and its shards and returns the head's sha256, the one a deployment names. */
export async function storeSiteManifest(
  blobs: Pick<BlobStore, 'put'>,
  manifest: SiteManifest,
): Promise<string> {
  const all = Object.entries(manifest.files)
  // A site of a shard or less is its head alone: one read, as before manifests had parts.
  const small = all.length <= filesPerShard
  const sharded = small ? [] : all.filter(([path]) => !headPaths.has(path))
  const count = Math.ceil(sharded.length / filesPerShard)
  const shards = Array.from({ length: count }, (): [string, SiteFileEntry][] => [])
  for (const entry of sharded) shards[shardOf(entry[0], count)]!.push(entry)
  const head: SiteManifestHead = {
    version: 2,
    ...(manifest.contentSecurityPolicy === undefined
      ? {}
      : { contentSecurityPolicy: manifest.contentSecurityPolicy }),
    shards: await Promise.all(shards.map((shard) => blobs.put(Buffer.from(entryLines(shard))))),
  }
  const headEntries = small ? all : all.filter(([path]) => headPaths.has(path))
  return blobs.put(Buffer.from(JSON.stringify(head) + entryLines(headEntries)))
}

/** Reads a manifest's head blob, of either version. */
export function parseManifestHead(bytes: Buffer): ReadManifestHead {
  const end = bytes.indexOf(newline)
  const first = JSON.parse(bytes.toString('utf8', 0, end === -1 ? undefined : end)) as
    | SiteManifest
    | SiteManifestHead
  return {
    ...(first.contentSecurityPolicy === undefined
      ? {}
      : { contentSecurityPolicy: first.contentSecurityPolicy }),
    files:
      first.version === 2
        ? new EntryLines(end === -1 ? Buffer.alloc(0) : bytes.subarray(end))
        : new EntryRecord(first.files, bytes.length),
    shards: first.version === 2 ? first.shards : [],
  }
}

/** The head of the manifest named `sha256` (enough for a file of `headPaths`); undefined when lost. */
export async function readManifestHead(
  blobs: Pick<BlobStore, 'get'>,
  sha256: string,
): Promise<ReadManifestHead | undefined> {
  const bytes = await blobs.get(sha256)
  return bytes ? parseManifestHead(bytes) : undefined
}

/** Reads a shard's blob. */
export const parseManifestShard = (bytes: Buffer): ManifestEntries => new EntryLines(bytes)

/**
 * The whole manifest named `sha256`, with the blobs it is stored in besides its head (`parts`, for
 * garbage collection); undefined when the store has lost the head or any shard.
 */
export async function readSiteManifest(
  blobs: Pick<BlobStore, 'get'>,
  sha256: string,
): Promise<{ manifest: SiteManifest; parts: string[] } | undefined> {
  const head = await readManifestHead(blobs, sha256)
  if (!head) return undefined
  const entries = head.files.all()
  for (const shard of head.shards) {
    const shardBytes = await blobs.get(shard)
    if (!shardBytes) return undefined
    entries.push(...parseManifestShard(shardBytes).all())
  }
  // By path, as the build lists them, so equal sites read back equal.
  entries.sort(([a], [b]) => a.localeCompare(b))
  const files = Object.create(null) as Record<string, SiteFileEntry>
  for (const [path, entry] of entries) files[path] = entry
  const policy =
    head.contentSecurityPolicy === undefined ? {} : { contentSecurityPolicy: head.contentSecurityPolicy }
  return { manifest: { version: 1, files, ...policy }, parts: head.shards }
}
