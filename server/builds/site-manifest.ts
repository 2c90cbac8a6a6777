/**
 * A built site as stored: path → the blob of its bytes, plus precompressed variants. Serving reads
 * only this and the blob store; the manifest itself is a blob named on the deployment row.
 */
export interface SiteFileEntry {
  sha256: string
  size: number
  contentType: string
  /** Blob of the brotli-compressed bytes, when compressing saved space. */
  br?: { sha256: string; size: number }
  /** Blob of the gzip-compressed bytes, when compressing saved space. */
  gzip?: { sha256: string; size: number }
}

export interface SiteManifest {
  version: 1
  files: Record<string, SiteFileEntry>
}

/** Text formats worth precompressing; images and fonts are already compressed. */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(json|javascript|xml|manifest\+json|ld\+json)|image\/svg\+xml)/.test(
    contentType,
  )
}
