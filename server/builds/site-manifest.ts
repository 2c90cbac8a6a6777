import { MCP_PAGES_PATH } from '../../compiler/outputs/mcp-pages.js'
import { SEARCH_INDEX_PATH } from '../../compiler/outputs/search-index.js'
import { REDIRECTS_FILE } from '../../compiler/redirects.js'

/**
 * A built site as stored: path → the blob of its bytes, plus precompressed variants. Serving reads
 * only this and the blob store; the manifest itself is a blob named on the deployment row.
 *
 * Stored in parts (version 2): a head with the files any request may consult (`headPaths`) and the
 * names of shards, each a blob of about `filesPerShard` entries. A page's HTML, its Markdown export and
 * every path a URL of it is routed through share one shard (`shardKey`), so reading a page reads the
 * head and one shard, whatever the site's size. Entries are stored one per line, `[path, entry]` in
 * JSON, so a lookup finds its line in the bytes and parses that line alone: a replica keeps parts as
 * bytes (its manifest cache holds what its setting says, not two or three times that in objects) and a
 * read that misses the cache makes no garbage but a line's. A site of `filesPerShard` files or fewer
 * is its head alone. Version 1, the whole manifest as one JSON object, is what deployments built
 * before parts existed have; both are read (site-manifest-store.ts).
 */
export interface SiteFileEntry {
  sha256: string
  size: number
  contentType: string
  /** A build asset whose name holds its hash (the theme's CSS and JS): cached by browsers for a year. */
  immutable?: true
  /** Blob of the brotli-compressed bytes, when compressing saved space. */
  br?: { sha256: string; size: number }
  /** Blob of the gzip-compressed bytes, when compressing saved space. */
  gzip?: { sha256: string; size: number }
}

export interface SiteManifest {
  version: 1
  files: Record<string, SiteFileEntry>
  /** The pages' Content-Security-Policy from the build (absent in manifests made before it existed). */
  contentSecurityPolicy?: string
}

/**
 * The first line of a manifest's head (version 2); the head's entries follow it, one a line: those of
 * `headPaths` the site has, or every entry when it has no shard.
 */
export interface SiteManifestHead {
  version: 2
  contentSecurityPolicy?: string
  /** The sha256 of each shard's blob (lines of entries), in shard order; none for a small site. */
  shards: string[]
}

/** Files kept in the head, not in a shard: those requests of every page or endpoint look up. */
export const headPaths: ReadonlySet<string> = new Set([
  REDIRECTS_FILE,
  'llms.txt',
  '404.html',
  'robots.txt',
  MCP_PAGES_PATH,
  SEARCH_INDEX_PATH,
])

/** How many entries a shard holds on average: a read parses about this many, ~45 KB. */
export const filesPerShard = 128

/**
 * What places a path in its shard: the path without `.html`, `.md` or a last `index` segment, as long
 * as one is left, so `guide/index.html`, `guide.md`, `guide`, `guide.html` and `guide.html/index.html`
 * (each a path a URL of the page is routed through) fall together.
 */
export function shardKey(path: string): string {
  for (let key = path; ; ) {
    const shorter = key.replace(/\.(html|md)$/, '').replace(/(^|\/)index$/, '')
    if (shorter === key) return key
    key = shorter
  }
}

/**
 * The shard of `path` in a manifest of `count` shards: the 32-bit FNV-1a hash of its key's UTF-16 code
 * units, modulo `count`. Part of the stored format: a different hash would look in the wrong shards.
 * FNV-1a rather than sha256: a read hashes a path or two, and this costs a tenth of a microsecond.
 */
export function shardOf(path: string, count: number): number {
  if (count === 1) return 0
  const key = shardKey(path)
  let hash = 0x811c9dc5
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193)
  return (hash >>> 0) % count
}

/** Text formats worth precompressing; images and fonts are already compressed. */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(json|javascript|xml|manifest\+json|ld\+json)|image\/svg\+xml)/.test(
    contentType,
  )
}
