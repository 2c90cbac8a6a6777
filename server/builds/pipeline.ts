/**
 * The finalize pipeline: claim the deployment, build it in the worker pool, record the outcome, and
 * promote by one row update once every blob is durable. A failed build keeps its diagnostics and
 * never goes live. In-flight builds are tracked so shutdown can wait for them.
 */

import type { FastifyInstance } from 'fastify'
import { Piscina } from 'piscina'
import type { DeploymentRow } from '../db/repositories/deployments.js'
import type { ProjectRow } from '../db/repositories/projects.js'
import type { BuildTask, BuildTaskResult } from './worker.js'

export class BuildPipeline {
  readonly #pool: Piscina<BuildTask, BuildTaskResult>
  readonly #running = new Map<string, Promise<void>>()

  constructor(
    private readonly app: FastifyInstance,
    private readonly blobRoot: string,
    threads: number,
    private readonly timeoutMs: number,
  ) {
    this.#pool = new Piscina({
      filename: new URL('./worker.js', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 60_000,
    })
  }

  /** The build of `deploymentId`, whether it starts now or is already running. */
  running(deploymentId: string): Promise<void> | undefined {
    return this.#running.get(deploymentId)
  }

  start(project: ProjectRow, deployment: DeploymentRow, promote: boolean): Promise<void> {
    const existing = this.#running.get(deployment.id)
    if (existing) return existing
    const job = this.#build(project, deployment, promote).finally(() => this.#running.delete(deployment.id))
    this.#running.set(deployment.id, job)
    return job
  }

  async #build(project: ProjectRow, deployment: DeploymentRow, promote: boolean): Promise<void> {
    const { repos, log } = this.app
    const timings = JSON.parse(deployment.timings) as Record<string, number>
    try {
      const files = await repos.deployments.files(deployment.id)
      const previous = await repos.deployments.latestReadyWithCache(project.id)
      const posthog = await repos.analytics.posthogOf(project.id)
      // Aborting a task ends its worker thread: a runaway build frees its thread and never goes live.
      const signal = AbortSignal.timeout(this.timeoutMs)
      const result = await this.#pool.run(
        {
          blobRoot: this.blobRoot,
          files: files.map((file) => ({ path: file.path, sha256: file.sha256 })),
          cacheSha256: previous?.build_cache_sha256 ?? null,
          previousManifestSha256: previous?.site_manifest_sha256 ?? null,
          analytics: posthog ? { posthog } : null,
        },
        { signal },
      )
      await repos.deployments.finishBuild(deployment.id, {
        status: result.ok ? 'ready' : 'failed',
        diagnostics: result.diagnostics,
        timings: { ...timings, buildMs: result.buildMs },
        stats: result.stats,
        error: result.ok ? null : 'The build failed; see diagnostics',
        siteManifestSha256: result.ok ? result.siteManifestSha256 : null,
        buildCacheSha256: result.ok ? result.buildCacheSha256 : null,
      })
      if (result.ok && promote) {
        if (await repos.projects.promoteBuilt(project.id, deployment.id, deployment.created_at)) {
          this.app.sites.hosts.forgetProject(project.id)
        } else {
          log.info(
            { deploymentId: deployment.id },
            'build finished after a newer live deployment; not promoted',
          )
        }
      }
      log.info(
        { deploymentId: deployment.id, ok: result.ok, ...result.stats, buildMs: result.buildMs },
        'build finished',
      )
    } catch (error) {
      const message =
        error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')
          ? `it ran longer than the ${Math.round(this.timeoutMs / 1000)} s build limit`
          : error instanceof Error
            ? error.message
            : String(error)
      log.error({ err: error, deploymentId: deployment.id }, 'build crashed')
      await repos.deployments.finishBuild(deployment.id, {
        status: 'failed',
        diagnostics: [
          { severity: 'error', file: '', rule: 'build-crashed', message: `The build stopped: ${message}` },
        ],
        timings,
        stats: null,
        error: 'The build crashed',
        siteManifestSha256: null,
        buildCacheSha256: null,
      })
    }
  }

  /** Wait for running builds, then stop the threads. */
  async close(): Promise<void> {
    await Promise.allSettled(this.#running.values())
    await this.#pool.close()
  }
}
