/**
 * One build, in a worker thread: read the deployment's source blobs, run the compiler in lenient
 * mode with the previous build's cache, then store every output (and its brotli and gzip variants)
 * as blobs and the site manifest and new cache as blobs too. The request loop never does this work.
 */
import { setPriority } from 'node:os'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import mime from 'mime-types'
import type { Diagnostic } from '../../compiler/diagnostics.js'
import type { AnalyticsSettings, BuildCache, BuildOptions, BuildResult } from '../../compiler/types.js'
import { FilesystemBlobStore } from '../blobs/filesystem.js'
import { isCompressible, type SiteFileEntry, type SiteManifest } from './site-manifest.js'

// Builds yield the CPU to the serving loop: on Linux a thread's nice value is its own, so this lowers
// only this worker thread (and threads it starts), never the request loop.
try {
  setPriority(19)
} catch {}

export interface BuildTask {
  blobRoot: string
  files: { path: string; sha256: string }[]
  cacheSha256: string | null
  analytics: AnalyticsSettings | null
}

export interface BuildTaskResult {
  ok: boolean
  diagnostics: Diagnostic[]
  stats: { pagesRendered: number; pagesReused: number }
  siteManifestSha256: string
  buildCacheSha256: string
  buildMs: number
}

type BuildSite = (
  files: ReadonlyMap<string, Uint8Array>,
  options: BuildOptions,
) => BuildResult | Promise<BuildResult>

// Loaded on first use: the compiler is heavy and only workers need it.
let buildSite: BuildSite | undefined
async function loadCompiler(): Promise<BuildSite> {
  const compilerModule = '../../compiler/build.js'
  buildSite ??= ((await import(compilerModule)) as { buildSite: BuildSite }).buildSite
  return buildSite
}

export const contentTypeOf = (path: string): string => {
  if (path.endsWith('.md')) return 'text/markdown; charset=utf-8'
  const type = mime.lookup(path) || 'application/octet-stream'
  return /^text\/|javascript|json|xml|svg/.test(type) ? `${type}; charset=utf-8` : type
}

export default async function build(task: BuildTask): Promise<BuildTaskResult> {
  const started = performance.now()
  const blobs = new FilesystemBlobStore(task.blobRoot)
  const sources = new Map<string, Uint8Array>()
  for (const file of task.files) {
    const bytes = await blobs.get(file.sha256)
    if (!bytes) throw new Error(`source blob of ${file.path} is missing from the store`)
    sources.set(file.path, bytes)
  }
  let cache: BuildCache | undefined
  if (task.cacheSha256) {
    const bytes = await blobs.get(task.cacheSha256)
    if (bytes) cache = JSON.parse(bytes.toString('utf8')) as BuildCache
  }
  const compile = await loadCompiler()
  const result = await compile(sources, {
    mode: 'lenient',
    ...(cache ? { cache } : {}),
    ...(task.analytics ? { analytics: task.analytics } : {}),
  })

  const manifest: SiteManifest = { version: 1, files: {} }
  if (result.ok) {
    for (const [path, bytes] of [...result.files].sort(([a], [b]) => a.localeCompare(b))) {
      const contentType = contentTypeOf(path)
      const entry: SiteFileEntry = { sha256: await blobs.put(bytes), size: bytes.length, contentType }
      if (isCompressible(contentType) && bytes.length > 512) {
        const brotli = brotliCompressSync(bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        })
        if (brotli.length < bytes.length) entry.br = { sha256: await blobs.put(brotli), size: brotli.length }
        const gzip = gzipSync(bytes, { level: 9 })
        if (gzip.length < bytes.length) entry.gzip = { sha256: await blobs.put(gzip), size: gzip.length }
      }
      manifest.files[path] = entry
    }
  }
  const siteManifestSha256 = await blobs.put(Buffer.from(JSON.stringify(manifest)))
  const buildCacheSha256 = await blobs.put(Buffer.from(JSON.stringify(result.cache)))
  return {
    ok: result.ok,
    diagnostics: result.diagnostics,
    stats: { pagesRendered: result.stats.pagesRendered, pagesReused: result.stats.pagesReused },
    siteManifestSha256,
    buildCacheSha256,
    buildMs: Math.round(performance.now() - started),
  }
}
