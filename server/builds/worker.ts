/**
 * One build, as a task of the server's pool: compile the deployment's sources (shared by the request
 * thread, which read them through the BlobStore) in lenient mode with the previous build's cache, and
 * compress every output. Pages render as tasks of the same pool, asked for over `renderPort`. Each
 * output goes to the request thread over `filePort` as soon as it is made and compressed, and that
 * thread writes it to storage (this one never touches it): no build holds its whole site in memory.
 */
import { createHash } from 'node:crypto'
import { setPriority } from 'node:os'
import type { MessagePort } from 'node:worker_threads'
import type { Diagnostic } from '../../compiler/diagnostics.js'
import type { PageRenderer, RenderOutcome, RenderTask, SiteChanges } from '../../compiler/pool/protocol.js'
import { siteChanges, unpackFiles } from '../../compiler/pool/shared-files.js'
import { compilerBuildUrl } from '../../compiler/pool/worker-modules.js'
import type { AnalyticsSettings, BuildCache, BuildOptions, BuildResult } from '../../compiler/types.js'
import { contentTypeOf } from '../../serving/content-type.js'
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
  /** Takes each `BuiltFile` and answers `FileStored` once it is stored. */
  filePort: MessagePort
}

/** The request thread's answer to a `BuiltFile`: stored, or not (the build then stops). */
export interface FileStored {
  ok: boolean
}

/** Files sent to the request thread and not yet stored: how far the build may run ahead of storage. */
const FILES_IN_FLIGHT = 16

export interface RenderRequest {
  tasks: RenderTask[]
  pageSlugs: string[]
  /** The pages and files the build made or rewrote (API reference), over the sources the pool holds. */
  changes: SiteChanges
}

export interface BuiltFile {
  path: string
  bytes: Uint8Array
  sha256: string
  contentType: string
  br?: Uint8Array
  gzip?: Uint8Array
}

export interface BuildTaskResult {
  ok: boolean
  diagnostics: Diagnostic[]
  stats: { pagesRendered: number; pagesReused: number }
  /** How many files went over `filePort` (all stored by the time this result is sent). */
  files: number
  /** The theme's hashed assets among them: served with a year-long immutable cache. */
  immutable: string[]
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
  buildSite ??= ((await import(compilerBuildUrl())) as { buildSite: BuildSite }).buildSite
  return buildSite
}

/**
 * Pages render in the shared pool: ask the request thread, which owns it, and wait for the answer.
 * The pool holds the uploaded `sources`; what the build added or rewrote before rendering (generated
 * API pages, `openapi:` pages with their operation) goes with the request, or those pages would
 * render from what was uploaded, or not at all.
 */
function renderOver(port: MessagePort, sources: ReadonlyMap<string, Uint8Array>): PageRenderer {
  return (tasks, site) =>
    new Promise<RenderOutcome[]>((resolve) => {
      port.once('message', (outcomes: RenderOutcome[]) => resolve(outcomes))
      const request: RenderRequest = {
        tasks: [...tasks],
        pageSlugs: [...site.pageSlugs],
        changes: siteChanges(sources, site.files),
      }
      port.postMessage(request)
    })
}

/**
 * Hands built files to the request thread, compressing each on the way (on libuv's thread pool), with
 * at most `FILES_IN_FLIGHT` waiting for storage: a slow store holds the build back instead of
 * letting files pile up in memory.
 */
class FileSender {
  sent = 0
  readonly #port: MessagePort
  readonly #compressed: ReadonlySet<string>
  readonly #waiting: ((stored: FileStored) => void)[] = []
  readonly #inFlight = new Set<Promise<void>>()
  #compressedBytes = 0
  #failed = false

  constructor(port: MessagePort, compressed: Iterable<string>) {
    this.#port = port
    this.#compressed = new Set(compressed)
    port.on('message', (stored: FileStored) => this.#waiting.shift()?.(stored))
  }

  /** Sends one file; resolves once fewer than `FILES_IN_FLIGHT` are waiting for storage. */
  async send(path: string, bytes: Uint8Array): Promise<void> {
    if (this.#failed) throw new Error('a built file could not be stored')
    const file: BuiltFile = {
      path,
      bytes,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      contentType: contentTypeOf(path),
    }
    if (isCompressible(file.contentType) && bytes.length > 512 && !this.#compressed.has(file.sha256)) {
      // The first half megabyte at the best levels (an edit's few pages), the rest of a cold build faster.
      await compress(file, compressionLevels(this.#compressedBytes))
      this.#compressedBytes += bytes.length
    }
    const stored = new Promise<void>((resolve) => {
      this.#waiting.push((answer) => {
        if (!answer.ok) this.#failed = true
        resolve()
      })
    })
    this.#port.postMessage(file)
    this.sent++
    const pending = stored.finally(() => this.#inFlight.delete(pending))
    this.#inFlight.add(pending)
    if (this.#inFlight.size >= FILES_IN_FLIGHT) await Promise.race(this.#inFlight)
  }

  /** Waits until every file sent is stored; throws when any could not be. */
  async finished(): Promise<void> {
    await Promise.all(this.#inFlight)
    if (this.#failed) throw new Error('a built file could not be stored')
  }
}

export default async function build(task: BuildTask): Promise<BuildTaskResult> {
  const started = performance.now()
  const sources = unpackFiles(task.files, task.layout)
  const cache = task.cache ? (JSON.parse(new TextDecoder().decode(task.cache)) as BuildCache) : undefined
  const compile = await loadCompiler()
  const sender = new FileSender(task.filePort, task.compressed)
  let result: BuildResult
  try {
    result = await compile(sources, {
      mode: 'lenient',
      renderer: renderOver(task.renderPort, sources),
      ...(cache ? { cache } : {}),
      ...(task.analytics ? { analytics: task.analytics } : {}),
      onFile: (path, bytes) => sender.send(path, bytes),
    })
    await sender.finished()
  } finally {
    task.renderPort.close()
    task.filePort.close()
  }
  return {
    ok: result.ok,
    diagnostics: result.diagnostics,
    stats: { pagesRendered: result.stats.pagesRendered, pagesReused: result.stats.pagesReused },
    files: sender.sent,
    immutable: [...result.hashedAssets],
    contentSecurityPolicy: result.contentSecurityPolicy,
    cache: new TextEncoder().encode(JSON.stringify(result.cache)),
    buildMs: Math.round(performance.now() - started),
  }
}
