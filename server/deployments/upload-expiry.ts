/**
 * The periodic sweep of abandoned uploads: deployments left `uploading` past the configured age are
 * failed with the reason, and their chunk files and any stale temp file are deleted from the store.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { BlobStore } from '../blobs/store.js'
import type { Repositories } from '../db/repositories/index.js'

export class UploadExpiry {
  #timer: NodeJS.Timeout | undefined
  #sweeping: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly repos: Repositories,
    private readonly blobs: BlobStore,
    private readonly maxAgeMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Sweep now, then every quarter of the maximum age (at most hourly). */
  start(): void {
    const every = Math.min(3600_000, Math.max(1000, Math.floor(this.maxAgeMs / 4)))
    const run = () => {
      this.#sweeping = this.sweep().catch((error: unknown) =>
        this.log.error({ err: error }, 'upload expiry sweep failed'),
      )
    }
    run()
    this.#timer = setInterval(run, every)
    this.#timer.unref()
  }

  /** Stop sweeping; resolves once a sweep under way has finished with the database. */
  async stop(): Promise<void> {
    clearInterval(this.#timer)
    await this.#sweeping
  }

  async sweep(now = Date.now()): Promise<{ deployments: string[]; files: number }> {
    const hours = Math.round((this.maxAgeMs / 3600_000) * 10) / 10
    const deployments = await this.repos.deployments.expireAbandonedUploads(
      new Date(now - this.maxAgeMs).toISOString(),
      `The upload was abandoned: not finalized within ${hours} h of its creation; push again`,
    )
    const files = await this.blobs.sweepUploads({
      modifiedBefore: now - this.maxAgeMs,
      uploadKeyPrefixes: deployments.map((id) => `${id}-`),
    })
    if (deployments.length || files)
      this.log.info({ deployments: deployments.length, files }, 'expired abandoned uploads')
    return { deployments, files }
  }
}
