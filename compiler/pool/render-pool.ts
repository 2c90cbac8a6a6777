/**
 * The one pool of worker threads (piscina) that renders pages, each page a task with a CPU-time limit
 * and every thread under a heap limit: a page that runs away ends its own thread, the page fails with
 * the reason, and the rest of the site renders. The limit counts the CPU time of the thread rendering
 * the page (thread-cpu.ts), so a loaded machine cuts no page an idle one renders. The server shares one pool across every build (its build
 * tasks run here too); a command-line build makes one for its run.
 */

import type { ResourceLimits } from 'node:worker_threads'
import type { Piscina } from 'piscina'
import { lazyPackage } from '../../lib/lazy-package.js'
import type { ValidationMode } from '../config/types.js'
import type { SourceFiles } from '../files.js'
import type { PageRenderer, RenderOutcome, RenderPageMessage, RenderTask, SharedSite } from './protocol.js'
import { shareSite } from './shared-files.js'
import { threadCpuMs } from './thread-cpu.js'
import { renderWorkerUrl } from './worker-modules.js'

export interface RenderPoolOptions {
  /** Threads in the pool, for every kind of task it runs. */
  threads: number
  /** Heap limit of each thread, in MB; a page that needs more fails with a reason. */
  memoryMb?: number
  /**
   * Old-generation limit of each thread, in MB, the young generation sized by V8 from it: with no
   * limit V8 lets a thread's heap grow with the garbage of every page it rendered. Ignored when
   * `memoryMb` is given.
   */
  oldGenerationMb?: number
  /**
   * A page whose render uses more CPU time than this fails with a reason and its thread is replaced
   * (wall time where the thread's CPU time cannot be read).
   */
  pageTimeoutMs?: number
  /** A thread that dies outside any task (out of memory just as its page's deadline ended it). */
  onThreadError?: (error: unknown) => void
}

class TimeoutError extends Error {
  override name = 'TimeoutError'
}

/** The pages' build stopped (its own time limit, or its server closing): pages still waiting never run. */
class BuildStopped extends Error {
  override name = 'BuildStopped'
}

/** Loaded with the first build, not with every server start. */
const piscina = lazyPackage<typeof import('piscina')>('piscina')

export class RenderPool {
  #piscina: Piscina | undefined
  readonly #options: ConstructorParameters<typeof Piscina>[0] & {}
  readonly #onThreadError: (error: unknown) => void
  readonly #pageTimeoutMs: number | undefined
  readonly #memoryMb: number | undefined

  constructor(options: RenderPoolOptions) {
    const resourceLimits: ResourceLimits = {}
    if (options.memoryMb !== undefined) {
      resourceLimits.maxOldGenerationSizeMb = options.memoryMb
      resourceLimits.maxYoungGenerationSizeMb = Math.max(8, Math.round(options.memoryMb / 16))
    } else if (options.oldGenerationMb !== undefined)
      resourceLimits.maxOldGenerationSizeMb = options.oldGenerationMb
    this.#options = {
      filename: renderWorkerUrl(),
      // Kept at full strength: piscina replaces a thread that a page's heap limit or deadline ended only
      // up to minThreads, and pages queued behind it would otherwise wait for a thread that never comes
      // while their build task holds the other one.
      minThreads: Math.max(1, options.threads),
      maxThreads: Math.max(1, options.threads),
      idleTimeout: 60_000,
      resourceLimits,
    }
    this.#onThreadError = options.onThreadError ?? (() => {})
    this.#pageTimeoutMs = options.pageTimeoutMs
    this.#memoryMb = options.memoryMb ?? options.oldGenerationMb
  }

  /**
   * The pool, started on first use: its threads start at full strength, and a server that closes before
   * any build must not end threads still loading their module (that aborts Node 20 in require(esm)).
   */
  get piscina(): Piscina {
    if (!this.#piscina) {
      this.#piscina = new (piscina().Piscina)(this.#options)
      // Without a listener, such an error would be thrown from the pool's emitter and end the process.
      this.#piscina.on('error', this.#onThreadError)
    }
    return this.#piscina
  }

  /** Render pages of one site; each outcome is the page or why it failed, never a thrown error. */
  readonly render: PageRenderer = (tasks, site) =>
    this.renderShared(tasks, shareSite(site.files, site.pageSlugs, site.mode))

  /**
   * Render pages of a site the caller shared. When `stop` aborts (the build ran out of time), pages
   * rendering end with their threads and pages still queued never start: each fails with `build-limit`.
   */
  renderShared(
    tasks: readonly RenderTask[],
    site: SharedSite,
    options: { stop?: AbortSignal } = {},
  ): Promise<RenderOutcome[]> {
    return Promise.all(tasks.map((task) => this.#renderOne(site, task, options.stop)))
  }

  async #renderOne(
    site: SharedSite,
    task: RenderTask,
    stop: AbortSignal | undefined,
  ): Promise<RenderOutcome> {
    if (stop?.aborted) return stopped(stop.reason)
    const message: RenderPageMessage = { site, task, started: new SharedArrayBuffer(8) }
    const started = new Int32Array(message.started)
    const abort = new AbortController()
    const onStop = () => abort.abort(new BuildStopped(reasonText(stop?.reason)))
    stop?.addEventListener('abort', onStop, { once: true })
    let deadline: NodeJS.Timeout | undefined
    // The limit counts from when a thread begins the page, not while it waits its turn in the queue.
    if (this.#pageTimeoutMs !== undefined) {
      const limit = this.#pageTimeoutMs
      void Promise.resolve(Atomics.waitAsync(started, 0, 0).value).then(() => {
        if (abort.signal.aborted) return
        const tid = Atomics.load(started, 1)
        const base = tid ? threadCpuMs(tid) : undefined
        if (base === undefined) {
          deadline = setTimeout(() => abort.abort(new TimeoutError()), limit)
          return
        }
        // A thread cannot use more CPU time than the wall time that passes: look again only when the
        // rest of the budget could be spent, so a page that stays under its limit is read rarely.
        const check = (wait: number) => {
          deadline = setTimeout(() => {
            if (abort.signal.aborted || Atomics.load(started, 0) !== 1) return
            const used = (threadCpuMs(tid) ?? Number.POSITIVE_INFINITY) - base
            if (used >= limit) abort.abort(new TimeoutError())
            else check(Math.max(10, limit - used))
          }, wait)
        }
        check(limit)
      })
    }
    try {
      // The outcome is settled by the deadline itself: a thread dying out of memory while piscina ends
      // it must not leave the page waiting.
      const timedOut = new Promise<never>((_, reject) =>
        abort.signal.addEventListener('abort', () => reject(abort.signal.reason), { once: true }),
      )
      return (await Promise.race([
        this.piscina.run(message, { signal: abort.signal }),
        timedOut,
      ])) as RenderOutcome
    } catch (error) {
      const reason: unknown = abort.signal.reason
      if (reason instanceof BuildStopped) return stopped(reason.message)
      return this.#failure(reason instanceof TimeoutError ? reason : error)
    } finally {
      stop?.removeEventListener('abort', onStop)
      clearTimeout(deadline)
      // Ends the wait of a task that failed before it began.
      abort.abort()
      Atomics.store(started, 0, 2)
      Atomics.notify(started, 0)
    }
  }

  #failure(error: unknown): RenderOutcome {
    const name = error instanceof Error ? error.name : ''
    const code = (error as { code?: unknown } | null)?.code
    if (name === 'AbortError' || name === 'TimeoutError') {
      const seconds = (this.#pageTimeoutMs ?? 0) / 1000
      return {
        ok: false,
        rule: 'page-limit',
        message: `Unexpected page needing more than the ${seconds} s of CPU time of the page limit; the page is not rendered`,
      }
    }
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return {
        ok: false,
        rule: 'page-limit',
        message: `Unexpected page needing more than the ${this.#memoryMb} MB page memory limit; the page is not rendered`,
      }
    }
    const reason = error instanceof Error ? error.message : String(error)
    return { ok: false, message: `Unexpected failure rendering the page: ${reason}` }
  }

  close(): Promise<void> {
    return this.#piscina?.close() ?? Promise.resolve()
  }
}

const reasonText = (reason: unknown): string =>
  reason instanceof Error ? reason.message : String(reason ?? 'the build stopped')

function stopped(reason: unknown): RenderOutcome {
  return {
    ok: false,
    rule: 'build-limit',
    message: `Unexpected end of the build before this page rendered: ${reasonText(reason)}; the page is not rendered`,
  }
}

/**
 * Heap of each thread of a command-line build. A thread's live data (grammars, processors, the
 * highlight cache) stays near 100 MB on real sites; without a limit V8 let pipecat's two threads grow
 * to 260 MB each, mostly garbage. A page that needs more fails with the reason, as on the server
 * (whose threads have `--build-memory`, 512 MB by default).
 */
export const TEMPORARY_POOL_HEAP_MB = 256

/** Render with a pool made for this call (a command-line build), closed when done. */
export async function renderWithTemporaryPool(
  tasks: readonly RenderTask[],
  site: { files: SourceFiles; pageSlugs: ReadonlySet<string>; mode: ValidationMode },
  threads: number,
): Promise<RenderOutcome[]> {
  const pool = new RenderPool({
    threads: Math.min(threads, tasks.length),
    oldGenerationMb: TEMPORARY_POOL_HEAP_MB,
  })
  try {
    return await pool.render(tasks, site)
  } finally {
    await pool.close()
  }
}
