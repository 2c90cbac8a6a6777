/**
 * Versioned URLs of an author's files: a page references `images/a.png?v=<12 hex of the file's sha256>`,
 * so a reader who loaded the page of one deployment asks for the bytes of that same deployment even
 * after the next one went live (the server answers from the project's earlier deployments by hash,
 * server/sites/site-server.ts). Deterministic: the same bytes give the same URL. A static export or
 * `docsctl dev` ignores the query and serves the file at its path.
 */
import { createHash } from 'node:crypto'

/** Hex digits of the sha256 a version carries: 48 bits, enough to tell one path's versions apart. */
export const ASSET_VERSION_LENGTH = 12

const versions = new WeakMap<Uint8Array, string>()

/** The version of a file's bytes: the first 12 hex digits of their sha256 (memoised per buffer). */
export function assetVersion(bytes: Uint8Array): string {
  let version = versions.get(bytes)
  if (version === undefined) {
    version = createHash('sha256').update(bytes).digest('hex').slice(0, ASSET_VERSION_LENGTH)
    versions.set(bytes, version)
  }
  return version
}

/**
 * `url` (a relative URL of a site file, with the author's `suffix`: `''`, `#x` or `?x…`) with the
 * version of `bytes`. A URL whose author wrote a query of their own is left as written.
 */
export function versionedUrl(url: string, suffix: string, bytes: Uint8Array | undefined): string {
  if (!bytes || suffix.startsWith('?')) return url + suffix
  return `${url}?v=${assetVersion(bytes)}${suffix}`
}

/** The version a request's raw query (`''` or `?…`) asks for: `?v=<12 lowercase hex>` exactly, else undefined. */
export function requestedAssetVersion(query: string): string | undefined {
  const match = /^\?v=([0-9a-f]{12})$/.exec(query)
  return match?.[1]
}

/** The query that versions a file the shell links (`?v=…`), or `''` for a file without a version. */
export const versionQuery = (version: string | undefined): string => (version ? `?v=${version}` : '')
