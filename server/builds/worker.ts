/**
 * One build, in a worker thread: read the deployment's source blobs, run the compiler in lenient
 * mode with the previous build's cache, then store every output (and its brotli and gzip variants)
 * as blobs and the site manifest and new cache as blobs too. The request loop never does this work.
 */
import { availableParallelism, setPriority } from 'node:os'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Diagnostic } from '../../compiler/diagnostics.js'
import { contentTypeOf } from '../../compiler/serving/content-type.js'
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
  /** The previous build's site manifest: outputs with an unchanged hash keep its compressed variants. */
  previousManifestSha256: string | null
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

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)
// Quality 11 costs about 1 ms a kilobyte: worth it for typical pages, not for large files (sidebars of
// huge sites, the search index, llms-full.txt), where 6 keeps nearly the same ratio at a tenth the time.
const brotliQualityFor = (size: number): number => (size > 64 * 1024 ? 6 : 11)

type Variants = Pick<SiteFileEntry, 'br' | 'gzip'>

/** Brotli and gzip variants of one output, worth keeping only when smaller than the original. */
async function compressVariants(blobs: FilesystemBlobStore, bytes: Uint8Array): Promise<Variants> {
  const [brotli, gzipped] = await Promise.all([
    brotliAsync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: brotliQualityFor(bytes.length),
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipAsync(bytes, { level: 9 }),
  ])
  const variants: Variants = {}
  if (brotli.length < bytes.length) variants.br = { sha256: await blobs.put(brotli), size: brotli.length }
  if (gzipped.length < bytes.length)
    variants.gzip = { sha256: await blobs.put(gzipped), size: gzipped.length }
  return variants
}

/** Compressed variants of the previous build's outputs, by the sha256 of the uncompressed bytes. */
async function previousVariants(blobs: FilesystemBlobStore, manifestSha256: string | null) {
  const bySha = new Map<string, Variants>()
  const bytes = manifestSha256 ? await blobs.get(manifestSha256) : undefined
  if (!bytes) return bySha
  const manifest = JSON.parse(bytes.toString('utf8')) as SiteManifest
  for (const entry of Object.values(manifest.files)) {
    const variants: Variants = {}
    if (entry.br && (await blobs.has(entry.br.sha256))) variants.br = entry.br
    if (entry.gzip && (await blobs.has(entry.gzip.sha256))) variants.gzip = entry.gzip
    bySha.set(entry.sha256, variants)
  }
  return bySha
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
    workers: availableParallelism(),
    ...(cache ? { cache } : {}),
    ...(task.analytics ? { analytics: task.analytics } : {}),
  })

  const manifest: SiteManifest = { version: 1, files: {} }
  if (result.ok) {
    manifest.contentSecurityPolicy = result.contentSecurityPolicy
    const reusable = await previousVariants(blobs, task.previousManifestSha256)
    const outputs = [...result.files].sort(([a], [b]) => a.localeCompare(b))
    // Compression runs on libuv's thread pool, so a few files at a time use every core.
    const concurrency = Math.max(2, availableParallelism())
    const entries: SiteFileEntry[] = []
    for (let start = 0; start < outputs.length; start += concurrency) {
      await Promise.all(
        outputs.slice(start, start + concurrency).map(async ([path, bytes], offset) => {
          const contentType = contentTypeOf(path)
          const sha256 = await blobs.put(bytes)
          const entry: SiteFileEntry = { sha256, size: bytes.length, contentType }
          if (result.hashedAssets.has(path)) entry.immutable = true
          if (isCompressible(contentType) && bytes.length > 512) {
            Object.assign(entry, reusable.get(sha256) ?? (await compressVariants(blobs, bytes)))
          }
          entries[start + offset] = entry
        }),
      )
    }
    // Assigned in path order, so the same site always gives the same manifest blob.
    outputs.forEach(([path], index) => {
      manifest.files[path] = entries[index]!
    })
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
