/**
 * Reader insights as one service: the day's salt, the batcher, the site endpoint that accepts events,
 * and the prune of raw events past `--insights-keep-days` (the daily counts stay with the project).
 * app.ts creates it, hands `endpoint` to the site server and closes it before the database.
 */
import type { BlobStore } from '../blobs/store.js'
import type { ServerConfig } from '../config.js'
import type { Repositories } from '../db/repositories/index.js'
import type { SharedWindows } from '../sites/client-rate-limit.js'
import type { SiteLookup } from '../sites/site-server.js'
import { type BatcherOptions, InsightBatcher, type InsightWriter, repositoryWriter } from './batcher.js'
import { InsightCollector } from './collector.js'
import { DailySalt, utcDay } from './daily-salt.js'
import { type InsightsReportBody, insightsReport } from './report.js'

const day = 86_400_000
const pruneEveryMs = 3_600_000

export interface InsightsOptions {
  clock?: () => number
  batch?: BatcherOptions
  /** The per-client event limit's windows, shared by every replica (Redis). */
  sharedWindows?: SharedWindows
  /** What writes batches (on SQLite a thread of its own); the repository on this thread by default. */
  writer?: InsightWriter & { close?(): Promise<void> }
}

export class InsightsService {
  readonly salt: DailySalt
  readonly batcher: InsightBatcher
  #collector: InsightCollector | undefined
  #pruneTimer: NodeJS.Timeout | undefined
  readonly #clock: () => number
  readonly #sharedWindows: SharedWindows | undefined
  readonly #writer: InsightsOptions['writer']

  constructor(
    private readonly config: Pick<
      ServerConfig,
      'insightsRateLimitPerMinute' | 'insightsKeepDays' | 'trustProxy'
    >,
    private readonly repos: Repositories,
    private readonly blobs: BlobStore,
    options: InsightsOptions = {},
  ) {
    this.#clock = options.clock ?? Date.now
    this.#sharedWindows = options.sharedWindows
    this.salt = new DailySalt(repos)
    this.#writer = options.writer
    this.batcher = new InsightBatcher(options.writer ?? repositoryWriter(repos.insights), options.batch)
  }

  /** The site endpoint `<site>/_docs/events`, made once for the site server. */
  endpoint(sites: SiteLookup): InsightCollector {
    this.#collector ??= new InsightCollector(this.config, sites, this.repos, this.salt, this.batcher, {
      clock: this.#clock,
      ...(this.#sharedWindows ? { sharedWindows: this.#sharedWindows } : {}),
    })
    return this.#collector
  }

  start(): void {
    this.batcher.start()
    this.#pruneTimer ??= setInterval(() => void this.prune().catch(this.batcher.onError), pruneEveryMs)
    this.#pruneTimer.unref()
  }

  /** Deletes raw events older than the keep and visitor hashes older than yesterday. */
  async prune(): Promise<void> {
    const now = this.#clock()
    await this.repos.insights.prune(utcDay(now - this.config.insightsKeepDays * day), utcDay(now - day))
  }

  async setEnabled(projectId: string, enabled: boolean): Promise<void> {
    await this.repos.insights.setEnabled(projectId, enabled)
    this.#collector?.forget(projectId)
  }

  /** The last `days` UTC days, today included. */
  lastDays(days: number): { from: string; to: string } {
    const now = this.#clock()
    return { from: utcDay(now - (days - 1) * day), to: utcDay(now) }
  }

  async report(
    project: { id: string; live_deployment_id: string | null },
    range: { from: string; to: string },
    limit: number,
  ): Promise<InsightsReportBody> {
    // Events still waiting in this replica's batch are counted too.
    await this.batcher.flush()
    return insightsReport(this.repos, this.blobs, project, range, limit)
  }

  async close(): Promise<void> {
    if (this.#pruneTimer) clearInterval(this.#pruneTimer)
    this.#pruneTimer = undefined
    await this.batcher.close()
    await this.#writer?.close?.()
  }
}
