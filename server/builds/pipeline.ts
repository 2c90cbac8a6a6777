/**
 * The finalize pipeline: finalize queues a build job in the database; this replica's workers (at most
 * `concurrency` builds at once) take jobs with a lease, from any replica's pushes, renew it while
 * building, read the sources through the BlobStore, build as a task of the server's one worker pool
 * (its pages render as tasks of the same pool, each with a deadline and a heap limit), store the
 * outputs as blobs, and record the outcome and promote in one transaction that holds only while the
 * lease is still theirs, so a build is recorded and goes live once. A failed build keeps its
 * diagnostics and never goes live. A job whose replica died is taken again when its lease runs out;
 * closing releases the leases of unfinished builds so another replica takes them at once. Storage that
 * is away for a while (storage-retry.ts) is waited for with backoff within the build's time; past it the
 * job goes back to the queue, never failed for an outage.
 */
import { setMaxListeners } from 'node:events'
import { hostname } from 'node:os'
import { pathToFileURL } from 'node:url'
import { MessageChannel } from 'node:worker_threads'
import type { FastifyInstance } from 'fastify'
import type { Diagnostic } from '../../compiler/diagnostics.js'
import { RenderPool } from '../../compiler/pool/render-pool.js'
import { packFiles, sharedSite } from '../../compiler/pool/shared-files.js'
import { fromPackageRoot } from '../../lib/package-root.js'
import type { BlobStore } from '../blobs/store.js'
import type { BuildLease } from '../db/repositories/build-jobs.js'
import type { DeploymentRow } from '../db/repositories/deployments.js'
import { createRepositories } from '../db/repositories/index.js'
import type { ProjectRow } from '../db/repositories/projects.js'
import { retryWithBackoff } from '../db/retry.js'
import type { SiteFileEntry, SiteManifest } from './site-manifest.js'
import { readSiteManifest, storeSiteManifest } from './site-manifest-store.js'
import { type Sleep, StorageOutage, type StorageRetry, sleepFor, withStorageRetry } from './storage-retry.js'
import type { BuildTask, BuildTaskResult, BuiltFile, FileStored, RenderRequest } from './worker.js'

export interface BuildLimits {
  /** Builds at once on this replica; the pool holds one thread per build plus as many again for pages. */
  concurrency: number
  /** Whole-build deadline. */
  timeoutMs: number
  /** A page rendering longer than this fails with a reason. */
  pageTimeoutMs: number
  /** Heap limit of every pool thread, in MB. */
  memoryMb: number
  /** How long a lease holds without renewal; renewed every third of it while building. */
  leaseMs: number
  /** How often idle workers look for jobs queued by other replicas or left by dead ones. */
  pollMs: number
}

/** Leases a job may take before it is failed: a build that kills its replica every time stops. */
const maxAttempts = 3

// From the package root, not from this file: docs-server runs bundled (scripts/bundle.ts), the worker not.
const buildWorker = pathToFileURL(fromPackageRoot('dist', 'server', 'builds', 'worker.js')).href

// piscina infers its transfer-list type from MessagePort.postMessage's last overload, which newer
// @types/node made the options object; at run time it wants the array Node has always taken.
type TransferList = NonNullable<Parameters<RenderPool['piscina']['run']>[1]>['transferList']

type Variants = Pick<SiteFileEntry, 'br' | 'gzip'>

/** Why a running build was stopped from outside: the lease went elsewhere, or this replica closes. */
class LeaseEnded extends Error {
  constructor(readonly reason: 'lost' | 'closing') {
    super(reason === 'lost' ? 'the build lease expired and was taken again' : 'the server is shutting down')
  }
}

/** The build ran past `BuildLimits.timeoutMs`: it is stopped with its pages and fails with the reason. */
class BuildTimedOut extends Error {
  constructor(readonly limitMs: number) {
    super(`it ran longer than the ${Math.round(limitMs / 1000)} s build limit`)
  }
}

interface RunningBuild {
  lease: BuildLease
  /** Aborted when the lease ends or the build runs out of time: stops the build task and its pages. */
  abort: AbortController
  /** The build's deadline, held here until the build ends (see `startDeadline`). */
  deadline: BuildDeadline
  done: Promise<void>
}

export interface BuildDeadline {
  cancel(): void
}

/**
 * The threads that run a replica's builds and their pages. A build task waits on its pages, so there are
 * always `concurrency` threads free for pages.
 */
export function buildThreadPool(
  limits: Pick<BuildLimits, 'concurrency' | 'memoryMb' | 'pageTimeoutMs'>,
  onThreadError: (error: unknown) => void,
): RenderPool {
  return new RenderPool({
    threads: limits.concurrency * 2,
    memoryMb: limits.memoryMb,
    pageTimeoutMs: limits.pageTimeoutMs,
    onThreadError,
  })
}

/**
 * A plain timer, held by the running build and cancelled when it ends. Never `AbortSignal.timeout`:
 * `AbortSignal.any` holds it only weakly, so garbage collection dropped it and the limit never fired.
 */
function startTimer(ms: number, expire: () => void): BuildDeadline {
  const timer = setTimeout(expire, ms)
  timer.unref()
  return { cancel: () => clearTimeout(timer) }
}

export class BuildPipeline {
  readonly #pool: RenderPool
  /** Builds this replica runs, by deployment id. */
  readonly #running = new Map<string, RunningBuild>()
  /** Names this replica in `build_jobs.lease_owner`. */
  readonly replica = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`
  #pagesInFlight = 0
  #pumping: Promise<void> | undefined
  #pumpAgain = false
  #pollTimer: NodeJS.Timeout | undefined
  #cleanupTimer: NodeJS.Timeout | undefined
  #closing = false
  /** Consecutive failed looks for jobs (database unreachable): the next poll waits longer. */
  #failedPolls = 0
  /** Called when this replica queued a job, so idle replicas look at once (NOTIFY on PostgreSQL). */
  onQueued: () => void = () => {}
  /** Called with each finished build's duration and outcome (metrics). */
  onBuilt: (seconds: number, outcome: 'ready' | 'failed') => void = () => {}
  /** Starts each build's deadline (`timeoutMs`); tests replace it to end a build at a moment they choose. */
  startDeadline: (ms: number, expire: () => void) => BuildDeadline = startTimer
  /** Waits between tries of storage that is away (storage-retry.ts); tests replace it to wait for nothing. */
  sleep: Sleep = sleepFor
  /** Aborted when this replica closes: ends the waits of writes that no build's time bounds. */
  readonly #closed = new AbortController()

  /** False when the pool was lent by the caller, who closes it. */
  readonly #ownsPool: boolean

  /**
   * `pool`, when given, is the caller's (made with `buildThreadPool` for the same limits): this pipeline
   * runs its builds there and leaves it open when it closes. Tests lend one to every app of their process
   * instead of starting and warming two threads per app.
   */
  constructor(
    private readonly app: FastifyInstance,
    private readonly blobs: BlobStore,
    private readonly limits: BuildLimits,
    pool?: RenderPool,
  ) {
    this.#ownsPool = pool === undefined
    this.#pool =
      pool ??
      buildThreadPool(limits, (error) => app.log.warn({ err: error }, 'a build thread ended outside a task'))
  }

  /** Start looking for jobs: now, whenever told (`wake`), and every `pollMs` for other replicas' jobs. */
  start(): void {
    if (this.#pollTimer || this.#closing) return
    const poll = () => {
      // Backs off while the database is unreachable: 1, 2, 4… polls, at most 30 s.
      const wait = Math.min(30_000, this.limits.pollMs * 2 ** Math.min(this.#failedPolls, 10))
      this.#pollTimer = setTimeout(() => {
        void this.wake().finally(() => {
          if (!this.#closing) poll()
        })
      }, wait)
      this.#pollTimer.unref()
    }
    poll()
    void this.wake()
    // Done jobs only matter for whose turn it is; a day of them is plenty.
    this.#cleanupTimer = setInterval(() => {
      this.app.repos.buildJobs
        .forgetDone(new Date(Date.now() - 24 * 3600_000).toISOString())
        .catch((error: unknown) => this.app.log.warn({ err: error }, 'could not delete old build jobs'))
    }, 600_000)
    this.#cleanupTimer.unref()
  }

  /** Builds running on this replica now. */
  get runningCount(): number {
    return this.#running.size
  }

  /** Pages this replica's builds asked to render that have not ended yet, queued or rendering. */
  get pagesInFlight(): number {
    return this.#pagesInFlight
  }

  /**
   * Claim the uploaded deployment for building and queue its job (once, however many finalize calls
   * race), then let this replica's workers take what they can before answering, so a push started here
   * builds here when a worker is free. False when another call claimed it first.
   */
  async enqueue(
    project: ProjectRow,
    deployment: DeploymentRow,
    promote: boolean,
    uploadMs: number,
  ): Promise<boolean> {
    const { claimed, superseded } = await this.app.repos.buildJobs.enqueue({
      deployment,
      ownerId: project.owner_id,
      promote,
      uploadMs,
    })
    for (const { deploymentId, by } of superseded)
      this.app.log.info({ deploymentId, by }, 'queued build superseded by a newer push')
    if (claimed) {
      this.onQueued()
      await this.wake()
    }
    return claimed
  }

  /**
   * Wait until the deployment is no longer building (here or on any replica) or `waitMs` passed. A
   * build of this replica answers at once; others are seen by polling its row.
   */
  async settled(deploymentId: string, waitMs: number): Promise<void> {
    const deadline = Date.now() + waitMs
    while (Date.now() < deadline) {
      const local = this.#running.get(deploymentId)
      const remaining = deadline - Date.now()
      if (local) {
        let timer: NodeJS.Timeout | undefined
        await Promise.race([local.done, new Promise((resolve) => (timer = setTimeout(resolve, remaining)))])
        clearTimeout(timer)
      }
      const row = await this.app.repos.deployments.findById(deploymentId)
      if (row?.status !== 'building') return
      await new Promise((resolve) => setTimeout(resolve, Math.min(200, Math.max(0, deadline - Date.now()))))
    }
  }

  /** Take jobs while a worker is free. Calls while one round runs make it go round once more. */
  wake(): Promise<void> {
    if (this.#closing) return Promise.resolve()
    if (this.#pumping) {
      this.#pumpAgain = true
      return this.#pumping
    }
    this.#pumping = (async () => {
      do {
        this.#pumpAgain = false
        while (!this.#closing && this.#running.size < this.limits.concurrency) {
          let lease: BuildLease | undefined
          try {
            lease = await this.app.repos.buildJobs.take({
              replica: this.replica,
              leaseMs: this.limits.leaseMs,
              maxAttempts,
            })
            this.#failedPolls = 0
          } catch (error) {
            this.#failedPolls++
            this.app.log.warn({ err: error }, 'could not look for build jobs; retrying with backoff')
            return
          }
          if (!lease) break
          this.#run(lease)
        }
      } while (this.#pumpAgain && !this.#closing)
    })().finally(() => {
      this.#pumping = undefined
    })
    return this.#pumping
  }

  #run(lease: BuildLease): void {
    const abort = new AbortController()
    // Every page the build renders listens for its end: thousands of them are not a leak.
    setMaxListeners(0, abort.signal)
    const { log, repos } = this.app
    // Renew at a third of the lease, so two missed renewals (a slow database) still keep it.
    const renewal = setInterval(
      () => {
        repos.buildJobs.renew(lease, this.limits.leaseMs).then(
          (held) => {
            if (!held) abort.abort(new LeaseEnded('lost'))
          },
          (error: unknown) =>
            log.warn({ err: error, deploymentId: lease.deploymentId }, 'lease renewal failed'),
        )
      },
      Math.max(50, Math.floor(this.limits.leaseMs / 3)),
    )
    const deadline = this.startDeadline(this.limits.timeoutMs, () =>
      abort.abort(new BuildTimedOut(this.limits.timeoutMs)),
    )
    const storage: StorageRetry = {
      sleep: (ms, signal) => this.sleep(ms, signal),
      signal: abort.signal,
      outage: { current: undefined },
      onRetry: (fault, delayMs) =>
        log.warn(
          { err: fault.cause, deploymentId: lease.deploymentId, delayMs },
          `the ${fault.dependency} is unreachable; the build tries again`,
        ),
    }
    const done = this.#leased(lease, storage)
      .catch((error: unknown) => {
        if (error instanceof StorageOutage) return this.#requeue(lease, error)
        log.error({ err: error, deploymentId: lease.deploymentId }, 'build job failed')
        return undefined
      })
      .finally(() => {
        clearInterval(renewal)
        deadline.cancel()
        this.#running.delete(lease.deploymentId)
        void this.wake()
      })
    this.#running.set(lease.deploymentId, { lease, abort, deadline, done })
  }

  async #leased(lease: BuildLease, storage: StorageRetry): Promise<void> {
    const { repos, log } = this.app
    const project = await withStorageRetry(() => repos.projects.findById(lease.projectId), storage)
    const deployment = await withStorageRetry(() => repos.deployments.findById(lease.deploymentId), storage)
    if (!project || deployment?.status !== 'building') {
      // Deleted, or already recorded by an earlier holder: nothing to build; close the job.
      await withStorageRetry(
        () =>
          this.app.db.transaction().execute((trx) => createRepositories(trx).buildJobs.complete(trx, lease)),
        storage,
      )
      return
    }
    log.info(
      { deploymentId: lease.deploymentId, attempt: lease.attempts, replica: this.replica },
      'build leased',
    )
    await this.#build(project, deployment, lease, storage)
  }

  /**
   * Storage stayed away past the build's time: the job goes back to the queue (the outage counts as no
   * attempt), to be taken again by whichever replica is free once storage answers.
   */
  async #requeue(lease: BuildLease, outage: StorageOutage): Promise<void> {
    const released = await withStorageRetry(() => this.app.repos.buildJobs.release(lease), {
      sleep: (ms, signal) => this.sleep(ms, signal),
      signal: this.#closed.signal,
      outage: { current: undefined },
    }).catch(() => false)
    this.app.log.warn(
      { err: outage.cause, deploymentId: lease.deploymentId, released },
      `the ${outage.dependency} stayed unreachable for longer than the build could wait; build re-queued`,
    )
  }

  async #build(
    project: ProjectRow,
    deployment: DeploymentRow,
    lease: BuildLease,
    storage: StorageRetry,
  ): Promise<void> {
    const { repos, log } = this.app
    const ended = storage.signal
    /** A call to the database or the blob store, tried again while it is away. */
    const stored = <T>(call: () => Promise<T>): Promise<T> => withStorageRetry(call, storage)
    const started = performance.now()
    const timings = JSON.parse(deployment.timings) as Record<string, number>
    const queuedMs = Date.now() - Date.parse(deployment.updated_at)
    let pagesOfBuild: { requested: number; rendered: number; overLimit: Diagnostic[] } | undefined
    try {
      const sources = new Map<string, Uint8Array>()
      for (const file of await stored(() => repos.deployments.files(deployment.id))) {
        const bytes = await stored(() => this.blobs.get(file.sha256))
        if (!bytes) throw new Error(`source blob of ${file.path} is missing from the store`)
        sources.set(file.path, bytes)
      }
      const { buffer, layout } = packFiles(sources)
      sources.clear()
      const previous = await stored(() => repos.deployments.latestReadyWithCache(project.id))
      const variants = await this.#previousVariants(previous?.site_manifest_sha256 ?? null, stored)
      const cacheSha256 = previous?.build_cache_sha256
      const cache = cacheSha256 ? await stored(() => this.blobs.get(cacheSha256)) : undefined
      const posthog = await stored(() => repos.analytics.posthogOf(project.id))
      const analytics = posthog ? { posthog } : null

      // Pages stop with the build: a build out of time leaves no page of its own queued before others'.
      const pages = { requested: 0, rendered: 0, overLimit: [] as Diagnostic[] }
      const channel = new MessageChannel()
      channel.port1.on('message', (request: RenderRequest) => {
        const site = sharedSite(buffer, layout, request.pageSlugs, 'lenient', request.changes)
        pages.requested += request.tasks.length
        const outcomes = request.tasks.map(async (task) => {
          this.#pagesInFlight++
          const [outcome] = await this.#pool
            .renderShared([task], site, { stop: ended })
            .finally(() => this.#pagesInFlight--)
          if (outcome?.ok) pages.rendered++
          else if (outcome?.rule === 'page-limit')
            pages.overLimit.push({
              severity: 'error',
              file: task.file,
              rule: 'page-limit',
              message: outcome.message,
            })
          return outcome
        })
        void Promise.all(outcomes).then((answers) => channel.port1.postMessage(answers))
      })
      pagesOfBuild = pages
      // Built files arrive one by one and are stored as they come; the worker waits for each answer
      // before sending more than a few, so a site never sits in this thread whole.
      const entries = new Map<string, SiteFileEntry>()
      let storeError: unknown
      const fileChannel = new MessageChannel()
      fileChannel.port1.on('message', (file: BuiltFile) => {
        void this.#storeFile(file, variants, stored)
          .then((entry) => {
            entries.set(file.path, entry)
            fileChannel.port1.postMessage({ ok: true } satisfies FileStored)
          })
          .catch((error: unknown) => {
            storeError ??= error
            fileChannel.port1.postMessage({ ok: false } satisfies FileStored)
          })
      })
      const task: BuildTask = {
        files: buffer,
        layout,
        cache: cache ?? null,
        compressed: [...variants.keys()],
        analytics,
        renderPort: channel.port2,
        filePort: fileChannel.port2,
      }
      // Aborting a task ends its thread: a runaway build frees it and never goes live.
      let result: BuildTaskResult
      try {
        result = (await this.#pool.piscina.run(task, {
          filename: buildWorker,
          signal: ended,
          transferList: [channel.port2, fileChannel.port2] as unknown as TransferList,
        })) as BuildTaskResult
      } catch (error) {
        throw storeError ?? error
      } finally {
        channel.port1.close()
        fileChannel.port1.close()
      }

      const manifest: SiteManifest = {
        version: 1,
        files: {},
        ...(result.ok ? { contentSecurityPolicy: result.contentSecurityPolicy } : {}),
      }
      // Listed by path, whatever order the files were stored in, so equal sites have equal manifests.
      const immutable = new Set(result.immutable)
      for (const path of [...entries.keys()].sort((a, b) => a.localeCompare(b))) {
        const entry = entries.get(path)!
        if (immutable.has(path)) entry.immutable = true
        manifest.files[path] = entry
      }
      const siteManifestSha256 = await stored(() => storeSiteManifest(this.blobs, manifest))
      const buildCacheSha256 = await stored(() => this.blobs.put(result.cache))
      if (ended.aborted) throw ended.reason
      const outcome = {
        status: result.ok ? ('ready' as const) : ('failed' as const),
        diagnostics: result.diagnostics,
        timings: { ...timings, queuedMs, buildMs: result.buildMs },
        stats: result.stats,
        error: result.ok ? null : 'The build failed; see diagnostics',
        siteManifestSha256: result.ok ? siteManifestSha256 : null,
        buildCacheSha256: result.ok ? buildCacheSha256 : null,
      }
      const recorded = await this.#record(
        lease,
        async (trx) => {
          await trx.deployments.finishBuild(deployment.id, outcome)
          if (!(result.ok && lease.promote)) return false
          return trx.projects.promoteBuilt(project.id, deployment.id, deployment.created_at)
        },
        storage,
      )
      if (recorded === undefined) {
        log.warn(
          { deploymentId: deployment.id },
          'build finished after its lease was taken again; not recorded',
        )
        return
      }
      if (recorded) {
        await this.app.siteChanged.project(project.id, 'promote')
      } else if (result.ok && lease.promote)
        log.info(
          { deploymentId: deployment.id },
          'build finished after a newer live deployment; not promoted',
        )
      this.onBuilt((performance.now() - started) / 1000, outcome.status)
      log.info(
        { deploymentId: deployment.id, ok: result.ok, ...result.stats, buildMs: result.buildMs, queuedMs },
        'build finished',
      )
    } catch (error) {
      // Storage was away when the build stopped (whatever stopped it): not the build's fault; re-queued.
      const outage = error instanceof StorageOutage ? error : storage.outage.current
      if (outage) throw outage
      const timedOut =
        error instanceof BuildTimedOut
          ? error
          : ended.reason instanceof BuildTimedOut
            ? ended.reason
            : undefined
      if (timedOut) {
        const pages = pagesOfBuild
        log.warn(
          { deploymentId: deployment.id, ...pages, overLimit: pages?.overLimit.length },
          'build over its time limit',
        )
        await this.#fail(
          lease,
          deployment,
          { ...timings, queuedMs },
          {
            rule: 'build-limit',
            message: `The build stopped: ${timedOut.message}${pages?.requested ? `; ${pages.rendered} of its ${pages.requested} pages rendered in time` : ''}`,
            error: `The build ran longer than the ${Math.round(timedOut.limitMs / 1000)} s build limit`,
          },
          // The pages that ran out their own limit are the likely cause: each is named at its file.
          pages?.overLimit ?? [],
        )
        this.onBuilt((performance.now() - started) / 1000, 'failed')
        return
      }
      const stop =
        error instanceof LeaseEnded ? error : ended.reason instanceof LeaseEnded ? ended.reason : undefined
      if (stop?.reason === 'closing') {
        const released = await retryWithBackoff(() => repos.buildJobs.release(lease)).catch(() => false)
        log.info({ deploymentId: deployment.id, released }, 'build stopped by shutdown; lease released')
        return
      }
      if (stop?.reason === 'lost') {
        log.warn({ deploymentId: deployment.id }, 'build lease lost to another replica; stopped here')
        return
      }
      const message =
        (error as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `it needed more than the ${this.limits.memoryMb} MB build memory limit`
          : error instanceof Error
            ? error.message
            : String(error)
      log.error({ err: error, deploymentId: deployment.id }, 'build crashed')
      await this.#fail(
        lease,
        deployment,
        { ...timings, queuedMs },
        {
          rule: 'build-crashed',
          message: `The build stopped: ${message}`,
          error: 'The build crashed',
        },
      )
      this.onBuilt((performance.now() - started) / 1000, 'failed')
    }
  }

  /**
   * Run `write` in one transaction with marking the job done, only while this replica holds the lease.
   * Undefined when the lease was lost (nothing written); retried with backoff while the database is away,
   * for as long as `storage` allows (a failure's record: until this replica closes).
   */
  #record<T>(
    lease: BuildLease,
    write: (trx: ReturnType<typeof createRepositories>) => Promise<T>,
    storage: StorageRetry = {
      sleep: (ms, signal) => this.sleep(ms, signal),
      signal: this.#closed.signal,
      outage: { current: undefined },
    },
  ): Promise<T | undefined> {
    return withStorageRetry(
      () =>
        this.app.db.transaction().execute(async (trx) => {
          const repos = createRepositories(trx)
          if (!(await repos.buildJobs.complete(trx, lease))) return undefined
          return write(repos)
        }),
      storage,
    )
  }

  async #fail(
    lease: BuildLease,
    deployment: DeploymentRow,
    timings: Record<string, number>,
    reason: { rule: string; message: string; error: string },
    more: readonly Diagnostic[] = [],
  ): Promise<void> {
    const diagnostic: Diagnostic = { severity: 'error', file: '', rule: reason.rule, message: reason.message }
    await this.#record(lease, (trx) =>
      trx.deployments.finishBuild(deployment.id, {
        status: 'failed',
        diagnostics: [diagnostic, ...more],
        timings,
        stats: null,
        error: reason.error,
        siteManifestSha256: null,
        buildCacheSha256: null,
      }),
    )
  }

  /** Stores one built file and its compressed variants (or reuses the previous build's). */
  async #storeFile(
    file: BuiltFile,
    variants: ReadonlyMap<string, Variants>,
    stored: <T>(call: () => Promise<T>) => Promise<T>,
  ): Promise<SiteFileEntry> {
    const put = (bytes: Uint8Array) => stored(() => this.blobs.put(bytes))
    const entry: SiteFileEntry = {
      sha256: await put(file.bytes),
      size: file.bytes.length,
      contentType: file.contentType,
      ...variants.get(file.sha256),
    }
    if (file.br) entry.br = { sha256: await put(file.br), size: file.br.length }
    if (file.gzip) entry.gzip = { sha256: await put(file.gzip), size: file.gzip.length }
    return entry
  }

  /** Compressed variants of the previous build's outputs, by the sha256 of the uncompressed bytes. */
  async #previousVariants(
    manifestSha256: string | null,
    stored: <T>(call: () => Promise<T>) => Promise<T>,
  ): Promise<Map<string, Variants>> {
    const bySha = new Map<string, Variants>()
    const read = manifestSha256 ? await stored(() => readSiteManifest(this.blobs, manifestSha256)) : undefined
    if (!read) return bySha
    const { manifest } = read
    for (const entry of Object.values(manifest.files)) {
      const variants: Variants = {}
      // touch, not has: reused without being written again, they must look fresh to garbage collection.
      const { br, gzip } = entry
      if (br && (await stored(() => this.blobs.touch(br.sha256)))) variants.br = br
      if (gzip && (await stored(() => this.blobs.touch(gzip.sha256)))) variants.gzip = gzip
      if (variants.br || variants.gzip) bySha.set(entry.sha256, variants)
    }
    return bySha
  }

  /**
   * Stop taking jobs; let this replica's running builds finish for up to `graceMs`, then stop the rest
   * and release their leases, so another replica (or this one after a restart) takes them at once;
   * then stop the threads.
   */
  async close(graceMs = 15_000): Promise<void> {
    this.#closing = true
    clearTimeout(this.#pollTimer)
    clearInterval(this.#cleanupTimer)
    await this.#pumping
    const finished = Promise.allSettled([...this.#running.values()].map((build) => build.done))
    let timer: NodeJS.Timeout | undefined
    await Promise.race([finished, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))])
    clearTimeout(timer)
    this.#closed.abort()
    for (const build of this.#running.values()) build.abort.abort(new LeaseEnded('closing'))
    await finished
    if (this.#ownsPool) await this.#pool.close()
  }
}
