/**
 * A built site as stored: path → the blob of its bytes, plus precompressed variants. Serving reads
 * only this and the blob store; the manifest itself is a blob named on the deployment row.
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

/** Text formats worth precompressing; images and fonts are already compressed. */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(json|javascript|xml|manifest\+json|ld\+json)|image\/svg\+xml)/.test(
    contentType,
  )
}
