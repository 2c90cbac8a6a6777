/**
 * One build, as a task of the server's pool: compile the deployment's sources (shared by the request
 * thread, which read them through the BlobStore) in lenient mode with the previous build's cache, and
 * compress every output. Pages render as tasks of the same pool, asked for over `renderPort`; blobs are
 * written by the request thread, so this thread never touches storage.
 */
import { createHash } from 'node:crypto'
import { setPriority } from 'node:os'
import type { MessagePort } from 'node:worker_threads'
import type { Diagnostic } from '../../compiler/diagnostics.js'
import type { PageRenderer, RenderOutcome, RenderTask } from '../../compiler/pool/protocol.js'
import { unpackFiles } from '../../compiler/pool/shared-files.js'
import { contentTypeOf } from '../../compiler/serving/content-type.js'
import type { AnalyticsSettings, BuildCache, BuildOptions, BuildResult } from '../../compiler/types.js'
import { compress, compressionLevels } from './compression.js'
import { isCompressible } from './site-manifest.js'

// Builds yield the CPU to the serving loop: on Linux a thread's nice value is its own, so this lowers
// only this worker thread, never the request loop.
try {
  setPriority(19)
} catch {}

export interface BuildTask {
  /** The deployment's source files, packed by the request thread. */
  files: SharedArrayBuffer
  layout: [string, number, number][]
  /** The previous build's cache as JSON bytes, when there is one. */
  cache: Uint8Array | null
  /** sha256 of outputs whose compressed variants the previous build already stored. */
  compressed: string[]
  analytics: AnalyticsSettings | null
  /** Answers `RenderRequest`s with `RenderOutcome[]`, from the shared pool. */
  renderPort: MessagePort
}

export interface RenderRequest {
  tasks: RenderTask[]
  pageSlugs: string[]
}

export interface BuiltFile {
  path: string
  bytes: Uint8Array
  sha256: string
  contentType: string
  /** One of the theme's hashed assets: served with a year-long immutable cache. */
  immutable: boolean
  br?: Uint8Array
  gzip?: Uint8Array
}

export interface BuildTaskResult {
  ok: boolean
  diagnostics: Diagnostic[]
  stats: { pagesRendered: number; pagesReused: number }
  files: BuiltFile[]
  /** The policy the built pages need (their head's inline scripts hashed); sent with every page. */
  contentSecurityPolicy: string
  cache: Uint8Array
  buildMs: number
}

type BuildSite = (
  files: ReadonlyMap<string, Uint8Array>,
  options: BuildOptions,
) => BuildResult | Promise<BuildResult>

// Loaded on first use: the compiler is heavy and only build tasks need it.
let buildSite: BuildSite | undefined
async function loadCompiler(): Promise<BuildSite> {
  const compilerModule = '../../compiler/build.js'
  buildSite ??= ((await import(compilerModule)) as { buildSite: BuildSite }).buildSite
  return buildSite
}

/** Pages render in the shared pool: ask the request thread, which owns it, and wait for the answer. */
function renderOver(port: MessagePort): PageRenderer {
  return (tasks, site) =>
    new Promise<RenderOutcome[]>((resolve) => {
      port.once('message', (outcomes: RenderOutcome[]) => resolve(outcomes))
      const request: RenderRequest = { tasks: [...tasks], pageSlugs: [...site.pageSlugs] }
      port.postMessage(request)
    })
}

export default async function build(task: BuildTask): Promise<BuildTaskResult> {
  const started = performance.now()
  const sources = unpackFiles(task.files, task.layout)
  const cache = task.cache ? (JSON.parse(new TextDecoder().decode(task.cache)) as BuildCache) : undefined
  const compile = await loadCompiler()
  let result: BuildResult
  try {
    result = await compile(sources, {
      mode: 'lenient',
      renderer: renderOver(task.renderPort),
      ...(cache ? { cache } : {}),
      ...(task.analytics ? { analytics: task.analytics } : {}),
    })
  } finally {
    task.renderPort.close()
  }

  const files: BuiltFile[] = []
  if (result.ok) {
    const compressed = new Set(task.compressed)
    const outputs = [...result.files].sort(([a], [b]) => a.localeCompare(b))
    const hashes = new Map(
      outputs.map(([path, bytes]) => [path, createHash('sha256').update(bytes).digest('hex')]),
    )
    const compressible = (path: string, bytes: Uint8Array) =>
      isCompressible(contentTypeOf(path)) && bytes.length > 512 && !compressed.has(hashes.get(path)!)
    let toCompress = 0
    for (const [path, bytes] of outputs) if (compressible(path, bytes)) toCompress += bytes.length
    const levels = compressionLevels(toCompress)
    // Compression runs on libuv's thread pool, so a few files at a time keep it busy.
    for (let start = 0; start < outputs.length; start += 4) {
      await Promise.all(
        outputs.slice(start, start + 4).map(async ([path, bytes]) => {
          const file: BuiltFile = {
            path,
            bytes,
            sha256: hashes.get(path)!,
            contentType: contentTypeOf(path),
            immutable: result.hashedAssets.has(path),
          }
          if (compressible(path, bytes)) await compress(file, levels)
          files.push(file)
        }),
      )
    }
    files.sort((a, b) => a.path.localeCompare(b.path))
  }
  return {
    ok: result.ok,
    diagnostics: result.diagnostics,
    stats: { pagesRendered: result.stats.pagesRendered, pagesReused: result.stats.pagesReused },
    files,
    contentSecurityPolicy: result.contentSecurityPolicy,
    cache: new TextEncoder().encode(JSON.stringify(result.cache)),
    buildMs: Math.round(performance.now() - started),
  }
}
