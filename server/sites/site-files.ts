/**
 * One deployment's files as the site server reads them: its manifest's head, and the shards a lookup
 * looks in, loaded on demand through the site server's manifest cache. A read of one page parses the
 * head and one shard (~128 entries), never the whole site, however many sites take turns in the cache.
 */
import { rebuiltPagePolicy, sitePagePolicy } from '../../compiler/security-headers.js'
import { headPaths, type SiteFileEntry, shardOf } from '../builds/site-manifest.js'
import type { ManifestEntries, ReadManifestHead } from '../builds/site-manifest-store.js'

/** A synchronous look at a deployment's files, inside `SiteFiles.lookup`. */
export interface FileLookup {
  get(path: string): SiteFileEntry | undefined
  /** Whether the deployment has `path`: `get` without reading the entry. */
  has(path: string): boolean
}

/** Where a deployment's shards come from: the manifest cache, else the blob store. */
export interface ShardSource {
  /** A shard if it is cached. */
  peek(sha256: string): ManifestEntries | undefined
  /** A shard from the cache or the blob store (and cached); throws when the store has lost it. */
  load(sha256: string): Promise<ManifestEntries>
}

export class SiteFiles {
  /** The pages' Content-Security-Policy: the build's, rebuilt from its well-formed sources. */
  readonly pagePolicy: string
  /** The head's files: those of `headPaths`, or a version 1 manifest's every file. */
  readonly #head: ManifestEntries
  readonly #shards: readonly string[]

  constructor(
    head: ReadManifestHead,
    private readonly source: ShardSource,
  ) {
    // Rebuilt, so nothing a deployment stored can add a directive; deployments built before policies
    // existed allow no inline script at all.
    this.pagePolicy = head.contentSecurityPolicy
      ? rebuiltPagePolicy(head.contentSecurityPolicy)
      : sitePagePolicy({ inlineScripts: [] })
    this.#head = head.files
    this.#shards = head.shards
  }

  /** The entry at `path`, if the deployment has that file. */
  get(path: string): Promise<SiteFileEntry | undefined> {
    return this.lookup((files) => files.get(path))
  }

  /**
   * Runs `read`, a synchronous look at the files (a router's `has`, say), once every shard it looks in
   * is loaded: it runs, the shards it missed are loaded, and it runs again until it misses none.
   */
  async lookup<T>(read: (files: FileLookup) => T): Promise<T> {
    // Made on first use: most lookups find their files in the head or a cached shard, asking once each.
    let loaded: Map<string, ManifestEntries> | undefined
    // A router asks for a path more than once (has, then the entry): each is found once per lookup.
    let found: Map<string, SiteFileEntry | undefined> | undefined
    for (;;) {
      let missing: Set<string> | undefined
      /** The entries `path` is among: the head, or its shard (noted as missing when not loaded). */
      const entriesOf = (path: string): ManifestEntries | undefined => {
        if (this.#shards.length === 0 || headPaths.has(path)) return this.#head
        const shard = this.#shards[shardOf(path, this.#shards.length)]!
        const held = loaded?.get(shard) ?? this.source.peek(shard)
        if (!held) {
          missing ??= new Set()
          missing.add(shard)
        }
        return held
      }
      const result = read({
        get: (path) => {
          if (found?.has(path)) return found.get(path)
          const entries = entriesOf(path)
          if (!entries) return undefined
          const entry = entries.get(path)
          found ??= new Map()
          found.set(path, entry)
          return entry
        },
        has: (path) =>
          found?.has(path) ? found.get(path) !== undefined : (entriesOf(path)?.has(path) ?? false),
      })
      if (!missing) return result
      // Held here too, so a shard evicted before `read` runs again (or too big to cache) is not missed again.
      loaded ??= new Map()
      for (const shard of missing) loaded.set(shard, await this.source.load(shard))
    }
  }

  /** Every path of the deployment (for its sitemap): loads every shard. */
  async paths(): Promise<string[]> {
    const paths = this.#head.all().map(([path]) => path)
    for (const shard of this.#shards)
      for (const [path] of (this.source.peek(shard) ?? (await this.source.load(shard))).all())
        paths.push(path)
    return paths
  }
}
