/**
 * The finalize pipeline: queue the deployment fairly, read its sources through the BlobStore, build
 * it as a task of the server's one worker pool (its pages render as tasks of the same pool, each with
 * a deadline and a heap limit), store the outputs as blobs, record the outcome, and promote by one row
 * update once every blob is durable. A failed build keeps its diagnostics and never goes live.
 */
import { MessageChannel } from 'node:worker_threads'
import type { FastifyInstance } from 'fastify'
import type { Diagnostic } from '../../compiler/diagnostics.js'
import { RenderPool } from '../../compiler/pool/render-pool.js'
import { packFiles, sharedSite } from '../../compiler/pool/shared-files.js'
import type { BlobStore } from '../blobs/store.js'
import type { DeploymentRow } from '../db/repositories/deployments.js'
import type { ProjectRow } from '../db/repositories/projects.js'
import { BuildQueue } from './queue.js'
import type { SiteFileEntry, SiteManifest } from './site-manifest.js'
import type { BuildTask, BuildTaskResult, RenderRequest } from './worker.js'

export interface BuildLimits {
  /** Builds at once; the pool holds one thread per build plus as many again for pages. */
  concurrency: number
  /** Whole-build deadline. */
  timeoutMs: number
  /** A page rendering longer than this fails with a reason. */
  pageTimeoutMs: number
  /** Heap limit of every pool thread, in MB. */
  memoryMb: number
}

const buildWorker = new URL('./worker.js', import.meta.url).href

// piscina infers its transfer-list type from MessagePort.postMessage's last overload, which newer
// @types/node made the options object; at run time it wants the array Node has always taken.
type TransferList = NonNullable<Parameters<RenderPool['piscina']['run']>[1]>['transferList']

type Variants = Pick<SiteFileEntry, 'br' | 'gzip'>

/** Built files stored at once. */
const blobWriters = 16

export class BuildPipeline {
  readonly #pool: RenderPool
  readonly #queue: BuildQueue
  readonly #running = new Map<string, Promise<void>>()

  constructor(
    private readonly app: FastifyInstance,
    private readonly blobs: BlobStore,
    private readonly limits: BuildLimits,
  ) {
    // A build task waits on its pages, so there are always `concurrency` threads free for pages.
    this.#pool = new RenderPool({
      threads: limits.concurrency * 2,
      memoryMb: limits.memoryMb,
      pageTimeoutMs: limits.pageTimeoutMs,
      onThreadError: (error) => app.log.warn({ err: error }, 'a build thread ended outside a task'),
    })
    this.#queue = new BuildQueue(limits.concurrency, (error, build) =>
      app.log.error({ err: error, deploymentId: build.deploymentId }, 'build queue step failed'),
    )
  }

  /** The build of `deploymentId`, whether it waits in the queue or runs. */
  running(deploymentId: string): Promise<void> | undefined {
    return this.#running.get(deploymentId)
  }

  start(project: ProjectRow, deployment: DeploymentRow, promote: boolean): Promise<void> {
    const existing = this.#running.get(deployment.id)
    if (existing) return existing
    const job = this.#queue
      .enqueue({
        ownerId: project.owner_id,
        projectId: project.id,
        deploymentId: deployment.id,
        createdAt: `${deployment.created_at}\0${deployment.id}`,
        run: () => this.#build(project, deployment, promote),
        supersede: (by) => this.#supersede(deployment, by),
      })
      .finally(() => this.#running.delete(deployment.id))
    this.#running.set(deployment.id, job)
    return job
  }

  async #supersede(deployment: DeploymentRow, by: string): Promise<void> {
    const message = `Superseded by the newer deployment ${by} of this project before it was built`
    await this.#fail(deployment, JSON.parse(deployment.timings) as Record<string, number>, {
      rule: 'build-superseded',
      message,
      error: message,
    })
  }

  async #build(project: ProjectRow, deployment: DeploymentRow, promote: boolean): Promise<void> {
    const { repos, log } = this.app
    const timings = JSON.parse(deployment.timings) as Record<string, number>
    const queuedMs = Date.now() - Date.parse(deployment.updated_at)
    try {
      const sources = new Map<string, Uint8Array>()
      for (const file of await repos.deployments.files(deployment.id)) {
        const bytes = await this.blobs.get(file.sha256)
        if (!bytes) throw new Error(`source blob of ${file.path} is missing from the store`)
        sources.set(file.path, bytes)
      }
      const { buffer, layout } = packFiles(sources)
      sources.clear()
      const previous = await repos.deployments.latestReadyWithCache(project.id)
      const variants = await this.#previousVariants(previous?.site_manifest_sha256 ?? null)
      const cache = previous?.build_cache_sha256
        ? await this.blobs.get(previous.build_cache_sha256)
        : undefined
      const posthog = await repos.analytics.posthogOf(project.id)
      const analytics = posthog ? { posthog } : null

      const channel = new MessageChannel()
      channel.port1.on('message', (request: RenderRequest) => {
        const site = sharedSite(buffer, layout, request.pageSlugs, 'lenient')
        void this.#pool
          .renderShared(request.tasks, site)
          .then((outcomes) => channel.port1.postMessage(outcomes))
      })
      const task: BuildTask = {
        files: buffer,
        layout,
        cache: cache ?? null,
        compressed: [...variants.keys()],
        analytics,
        renderPort: channel.port2,
      }
      // Aborting a task ends its thread: a runaway build frees it and never goes live.
      let result: BuildTaskResult
      try {
        result = (await this.#pool.piscina.run(task, {
          filename: buildWorker,
          signal: AbortSignal.timeout(this.limits.timeoutMs),
          transferList: [channel.port2] as unknown as TransferList,
        })) as BuildTaskResult
      } finally {
        channel.port1.close()
      }

      const manifest: SiteManifest = {
        version: 1,
        files: {},
        ...(result.ok ? { contentSecurityPolicy: result.contentSecurityPolicy } : {}),
      }
      // Stored several at a time (an object store answers each in milliseconds), listed in build order.
      const entries: SiteFileEntry[] = []
      const storeFile = async (index: number) => {
        const file = result.files[index]!
        const entry: SiteFileEntry = {
          sha256: await this.blobs.put(file.bytes),
          size: file.bytes.length,
          contentType: file.contentType,
          ...variants.get(file.sha256),
        }
        if (file.immutable) entry.immutable = true
        if (file.br) entry.br = { sha256: await this.blobs.put(file.br), size: file.br.length }
        if (file.gzip) entry.gzip = { sha256: await this.blobs.put(file.gzip), size: file.gzip.length }
        entries[index] = entry
      }
      let next = 0
      const storing = async () => {
        while (next < result.files.length) await storeFile(next++)
      }
      await Promise.all(Array.from({ length: blobWriters }, storing))
      result.files.forEach((file, index) => {
        manifest.files[file.path] = entries[index]!
      })
      const siteManifestSha256 = await this.blobs.put(Buffer.from(JSON.stringify(manifest)))
      const buildCacheSha256 = await this.blobs.put(result.cache)
      await repos.deployments.finishBuild(deployment.id, {
        status: result.ok ? 'ready' : 'failed',
        diagnostics: result.diagnostics,
        timings: { ...timings, queuedMs, buildMs: result.buildMs },
        stats: result.stats,
        error: result.ok ? null : 'The build failed; see diagnostics',
        siteManifestSha256: result.ok ? siteManifestSha256 : null,
        buildCacheSha256: result.ok ? buildCacheSha256 : null,
      })
      if (result.ok && promote) {
        if (await repos.projects.promoteBuilt(project.id, deployment.id, deployment.created_at)) {
          this.app.sites.hosts.forgetProject(project.id)
          void this.app.cdn.purgeProject(project.id, 'promote')
        } else {
          log.info(
            { deploymentId: deployment.id },
            'build finished after a newer live deployment; not promoted',
          )
        }
      }
      log.info(
        { deploymentId: deployment.id, ok: result.ok, ...result.stats, buildMs: result.buildMs, queuedMs },
        'build finished',
      )
    } catch (error) {
      const message =
        error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')
          ? `it ran longer than the ${Math.round(this.limits.timeoutMs / 1000)} s build limit`
          : (error as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `it needed more than the ${this.limits.memoryMb} MB build memory limit`
            : error instanceof Error
              ? error.message
              : String(error)
      log.error({ err: error, deploymentId: deployment.id }, 'build crashed')
      await this.#fail(
        deployment,
        { ...timings, queuedMs },
        {
          rule: 'build-crashed',
          message: `The build stopped: ${message}`,
          error: 'The build crashed',
        },
      )
    }
  }

  async #fail(
    deployment: DeploymentRow,
    timings: Record<string, number>,
    reason: { rule: string; message: string; error: string },
  ): Promise<void> {
    const diagnostic: Diagnostic = { severity: 'error', file: '', rule: reason.rule, message: reason.message }
    await this.app.repos.deployments.finishBuild(deployment.id, {
      status: 'failed',
      diagnostics: [diagnostic],
      timings,
      stats: null,
      error: reason.error,
      siteManifestSha256: null,
      buildCacheSha256: null,
    })
  }

  /** Compressed variants of the previous build's outputs, by the sha256 of the uncompressed bytes. */
  async #previousVariants(manifestSha256: string | null): Promise<Map<string, Variants>> {
    const bySha = new Map<string, Variants>()
    const bytes = manifestSha256 ? await this.blobs.get(manifestSha256) : undefined
    if (!bytes) return bySha
    const manifest = JSON.parse(bytes.toString('utf8')) as SiteManifest
    for (const entry of Object.values(manifest.files)) {
      const variants: Variants = {}
      // touch, not has: reused without being written again, they must look fresh to garbage collection.
      if (entry.br && (await this.blobs.touch(entry.br.sha256))) variants.br = entry.br
      if (entry.gzip && (await this.blobs.touch(entry.gzip.sha256))) variants.gzip = entry.gzip
      if (variants.br || variants.gzip) bySha.set(entry.sha256, variants)
    }
    return bySha
  }

  /** Wait for queued and running builds, then stop the threads. */
  async close(): Promise<void> {
    await Promise.allSettled(this.#running.values())
    await this.#pool.close()
  }
}
