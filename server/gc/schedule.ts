/**
 * The periodic garbage collection. Every replica looks a few times an interval; the first to record
 * the current time slot in `gc_runs` runs it, so a collection runs once an interval, whichever
 * replicas are up.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Repositories } from '../db/repositories/index.js'
import type { GarbageCollector, GcReport } from './collector.js'

export class GcSchedule {
  #timer: NodeJS.Timeout | undefined
  #running: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly repos: Pick<Repositories, 'retention'>,
    private readonly collector: GarbageCollector,
    private readonly intervalSeconds: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.intervalSeconds === 0) return
    const intervalMs = this.intervalSeconds * 1000
    this.#timer = setInterval(
      () => {
        this.#running = this.runSlot(Math.floor(Date.now() / intervalMs)).catch((error: unknown) =>
          this.log.error({ err: error }, 'garbage collection failed'),
        )
      },
      Math.max(1000, Math.floor(intervalMs / 4)),
    )
    this.#timer.unref()
  }

  /** Stop; resolves once a run under way has finished with the database. */
  async stop(): Promise<void> {
    clearInterval(this.#timer)
    await this.#running
  }

  /** Runs the collection of time slot `slot` unless another replica already has. */
  async runSlot(slot: number): Promise<GcReport | undefined> {
    const runId = await this.repos.retention.startRun({ dryRun: false, slot: String(slot) })
    if (!runId) return undefined
    return recordRun(this.repos, runId, this.collector, false, this.log)
  }
}

/** Runs the collector under a `gc_runs` row, recording what it freed or why it failed. */
export async function recordRun(
  repos: Pick<Repositories, 'retention'>,
  runId: string,
  collector: GarbageCollector,
  dryRun: boolean,
  log?: Pick<FastifyBaseLogger, 'info'>,
): Promise<GcReport> {
  try {
    const report = await collector.run({ dryRun })
    await repos.retention.finishRun(runId, {
      deploymentsDeleted: report.deployments.length,
      blobsDeleted: report.blobsDeleted,
      bytesFreed: report.bytesFreed,
      error: null,
    })
    log?.info(
      {
        deployments: report.deployments.length,
        blobs: report.blobsDeleted,
        bytesFreed: report.bytesFreed,
        durationMs: report.durationMs,
        dryRun,
      },
      'garbage collection finished',
    )
    return report
  } catch (error) {
    await repos.retention.finishRun(runId, {
      deploymentsDeleted: 0,
      blobsDeleted: 0,
      bytesFreed: 0,
      error: error instanceof Error ? error.message : String(error),
    })
    throw error
  }
}
