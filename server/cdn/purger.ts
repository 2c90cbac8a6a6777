/**
 * Purges the CDN by the tags pages carry (`Cache-Tag` for Cloudflare, `Surrogate-Key` for Fastly and Varnish:
 * `project-<id>` on every file of a project's sites, `deployment-<id>` on every file of a deployment)
 * and, for a webhook in front of a cache that purges by URL, the base URLs of the sites whose pages
 * changed, when a deployment goes live, a domain starts or stops serving, a project is deleted, or
 * garbage collection deletes deployments.
 *
 * A purge is a job in the database (db/repositories/cdn-purges.ts) before it is sent, so one waiting
 * for its next try outlives the replica that asked for it: the replica sends it at once and tries again
 * with backoff on a network error, a 429 or a 5xx, recording each failure and when the next try is due;
 * every replica looks for due jobs every `pollMs` and finishes those a closed or killed replica left.
 * Other answers are logged and the job failed (a wrong token will not mend).
 */
import { createHmac } from 'node:crypto'
import type { CdnPurgeLease, cdnPurgesRepository } from '../db/repositories/cdn-purges.js'
import type { CdnPurgeTarget } from './settings.js'
import { purgeVarnish, varnishBatchSize } from './varnish.js'

export type PurgeReason = 'promote' | 'preview' | 'git-disconnected' | 'domain' | 'project-deleted' | 'gc'

export const projectTag = (projectId: string) => `project-${projectId}`
export const deploymentTag = (deploymentId: string) => `deployment-${deploymentId}`

/** Cloudflare takes at most 30 tags a purge request, Fastly 256 surrogate keys. */
const batchSize = { cloudflare: 30, fastly: 256, varnish: varnishBatchSize, webhook: 256 } as const

export interface PurgeLog {
  info(details: object, message: string): void
  warn(details: object, message: string): void
  error(details: object, message: string): void
}

/** Where purges wait: the database's `cdn_purges` table, shared by every replica. */
export type PurgeQueue = Pick<
  ReturnType<typeof cdnPurgesRepository>,
  'enqueue' | 'take' | 'finish' | 'retryLater' | 'forgetFinished'
>

export interface PurgerOptions {
  /** Sends per purge, the first included. */
  attempts?: number
  /** Wait before the second send; doubled each time. */
  backoffMs?: number
  timeoutMs?: number
  /** How long a send holds its job before another replica may take it again. */
  leaseMs?: number
  /** How often `start()`ed replicas look for due purges left by others. */
  pollMs?: number
  /** Epoch ms now; tests move it on to make a purge due. */
  clock?: () => number
  /** Waits between sends; ends early (rejects) when the signal aborts. Tests pass one that never waits. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

/** A purge recorded in the database: `sent` settles once this replica stops working on it. */
export interface QueuedPurge {
  id: string | undefined
  /** True when the CDN accepted it here; false when it failed for good, or is left for the next try. */
  sent: Promise<boolean>
}

class PurgeFailed extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message)
  }
}

const waitFor = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const stop = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop)
      resolve()
    }, ms)
    signal.addEventListener('abort', stop, { once: true })
  })

export class CdnPurger {
  readonly #pending = new Set<Promise<unknown>>()
  readonly #attempts: number
  readonly #backoffMs: number
  readonly #timeoutMs: number
  readonly #leaseMs: number
  readonly #pollMs: number
  readonly #clock: () => number
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>
  /** Aborted by `close`: waits between tries end, and the jobs stay queued for any replica. */
  readonly #closing = new AbortController()
  #pollTimer: NodeJS.Timeout | undefined
  #lastCleanup = 0

  constructor(
    readonly target: CdnPurgeTarget,
    private readonly log: PurgeLog,
    private readonly queue: PurgeQueue,
    options: PurgerOptions = {},
  ) {
    this.#attempts = options.attempts ?? 6
    this.#backoffMs = options.backoffMs ?? 500
    this.#timeoutMs = options.timeoutMs ?? 10_000
    this.#leaseMs = options.leaseMs ?? 6 * this.#timeoutMs
    this.#pollMs = options.pollMs ?? 5000
    this.#clock = options.clock ?? Date.now
    this.#sleep = options.sleep ?? waitFor
  }

  get enabled(): boolean {
    return this.target.kind !== 'none'
  }

  /**
   * Record a purge of `tags` (and `urls`, the base URLs of the sites that changed) and send it in the
   * background. Resolves once the purge is durable; never rejects (a database that cannot record it
   * is logged, and the purge is lost as it was before it was a job).
   */
  purge(tags: readonly string[], reason: PurgeReason, urls: readonly string[] = []): Promise<QueuedPurge> {
    if (!this.enabled || tags.length + urls.length === 0)
      return Promise.resolve({ id: undefined, sent: Promise.resolve(true) })
    // Tracked from the start, so `close` waits for a purge still being recorded too.
    return this.#track(this.#record(tags, reason, urls))
  }

  async #record(tags: readonly string[], reason: PurgeReason, urls: readonly string[]): Promise<QueuedPurge> {
    let id: string
    try {
      id = await this.queue.enqueue({ reason, tags, urls, now: this.#clock() })
    } catch (error) {
      this.log.error(
        { err: error, cdn: this.target.kind, tags, urls, reason },
        'could not record a CDN purge',
      )
      return { id: undefined, sent: Promise.resolve(false) }
    }
    return { id, sent: this.#track(this.#work(id)) }
  }

  /** Look for due purges now and every `pollMs`: ones whose replica closed or died before they were sent. */
  start(): void {
    if (!this.enabled || this.#pollTimer || this.#closing.signal.aborted) return
    const poll = () => {
      this.#pollTimer = setTimeout(() => {
        void this.drain().finally(() => {
          if (!this.#closing.signal.aborted) poll()
        })
      }, this.#pollMs)
      this.#pollTimer.unref()
    }
    poll()
    void this.drain()
  }

  /** Send every purge due now (one try each; a failed one is due again after its backoff). */
  drain(): Promise<void> {
    return this.#track(
      (async () => {
        try {
          for (;;) {
            if (this.#closing.signal.aborted) return
            const job = await this.queue.take({ now: this.#clock(), leaseMs: this.#leaseMs })
            if (!job) break
            await this.#attempt(job)
          }
          const now = this.#clock()
          if (now - this.#lastCleanup > 600_000) {
            this.#lastCleanup = now
            await this.queue.forgetFinished(now - 24 * 3600_000)
          }
        } catch (error) {
          this.log.warn({ err: error }, 'could not look for CDN purges; trying again later')
        }
      })(),
    )
  }

  /** Stops looking and waiting; purges being sent finish, those waiting for a try stay queued for any replica. */
  async close(): Promise<void> {
    this.#closing.abort()
    clearTimeout(this.#pollTimer)
    while (this.#pending.size) await Promise.all(this.#pending)
  }

  #track<T>(work: Promise<T>): Promise<T> {
    this.#pending.add(work)
    void work.finally(() => this.#pending.delete(work))
    return work
  }

  /** Send the purge `id`, waiting out its backoff here between tries while this replica runs. */
  async #work(id: string): Promise<boolean> {
    try {
      let due = this.#clock()
      for (;;) {
        // Due once its backoff is waited out here (the sleeper may wait less than the clock says).
        const job = await this.queue.take({ id, now: Math.max(due, this.#clock()), leaseMs: this.#leaseMs })
        // Taken by another replica meanwhile, or finished.
        if (!job) return false
        const outcome = await this.#attempt(job)
        if (typeof outcome === 'string') return outcome === 'done'
        due = outcome.retryAt
        try {
          await this.#sleep(Math.max(0, due - this.#clock()), this.#closing.signal)
        } catch {
          return false
        }
      }
    } catch (error) {
      this.log.warn({ err: error, id }, 'could not record a CDN purge try; another replica takes it later')
      return false
    }
  }

  /** One try of a leased purge, recorded: done, failed for good, or queued again after its backoff. */
  async #attempt(job: CdnPurgeLease): Promise<'done' | 'failed' | { retryAt: number }> {
    const { tags, urls, attempts } = job
    const reason = job.reason as PurgeReason
    try {
      await this.#send(tags, urls, reason)
      await this.queue.finish(job, { status: 'done' }, this.#clock())
      this.log.info({ cdn: this.target.kind, tags, urls, reason, attempt: attempts }, 'CDN purged')
      return 'done'
    } catch (error) {
      const failed = error instanceof PurgeFailed ? error : new PurgeFailed(String(error), true)
      if (!failed.retryable || attempts >= this.#attempts) {
        await this.queue.finish(job, { status: 'failed', error: failed.message }, this.#clock())
        this.log.error(
          { cdn: this.target.kind, tags, urls, reason, attempt: attempts, error: failed.message },
          'CDN purge failed; pages may stay cached until their CDN lifetime ends',
        )
        return 'failed'
      }
      const delayMs = this.#backoffMs * 2 ** (attempts - 1)
      const retryAt = this.#clock() + delayMs
      await this.queue.retryLater(job, failed.message, retryAt)
      this.log.warn(
        { cdn: this.target.kind, tags, attempt: attempts, error: failed.message, delayMs },
        'CDN purge failed; retrying',
      )
      return { retryAt }
    }
  }

  /**
   * Every request a purge takes with this CDN: its tags in batches of the CDN's size. Cloudflare and
   * Fastly purge by tag alone; a webhook (a cache of your own, which may purge by URL) gets the URLs too.
   */
  async #send(tags: readonly string[], urls: readonly string[], reason: PurgeReason): Promise<void> {
    const size = batchSize[this.target.kind as keyof typeof batchSize]
    const batches: string[][] = []
    for (let start = 0; start < tags.length; start += size) batches.push(tags.slice(start, start + size))
    if (this.target.kind === 'webhook' && batches.length === 0) batches.push([])
    await Promise.all(batches.map((batch, index) => this.#request(batch, index === 0 ? urls : [], reason)))
  }

  async #request(tags: string[], urls: readonly string[], reason: PurgeReason): Promise<void> {
    const target = this.target
    let url: string
    let body: string
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
    switch (target.kind) {
      case 'cloudflare':
        // https://developers.cloudflare.com/api/resources/cache/methods/purge/ (purge by Cache-Tag)
        url = `${target.api}/zones/${target.zoneId}/purge_cache`
        headers.authorization = `Bearer ${target.token}`
        body = JSON.stringify({ tags })
        break
      case 'fastly':
        // https://www.fastly.com/documentation/reference/api/purging/ (bulk purge by surrogate key)
        url = `${target.api}/service/${target.serviceId}/purge`
        headers['fastly-key'] = target.token
        body = JSON.stringify({ surrogate_keys: tags })
        break
      case 'webhook':
        url = target.url
        body = JSON.stringify({ event: 'purge', reason, tags, urls })
        if (target.secret)
          headers['x-docs-signature'] =
            `sha256=${createHmac('sha256', target.secret).update(body).digest('hex')}`
        break
      case 'varnish': {
        const failed = await purgeVarnish(target.nodes, tags, this.#timeoutMs)
        if (failed) throw new PurgeFailed(failed.message, failed.retryable)
        return
      }
      case 'none':
        return
    }
    let response: Response
    try {
      response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(this.#timeoutMs),
      })
    } catch (error) {
      throw new PurgeFailed(`request failed: ${error instanceof Error ? error.message : String(error)}`, true)
    }
    const text = await response.text().catch(() => '')
    if (!response.ok) {
      throw new PurgeFailed(
        `HTTP ${response.status}: ${text.slice(0, 200)}`,
        response.status === 429 || response.status >= 500,
      )
    }
    // Cloudflare answers 200 with {"success": false, "errors": […]} for some refusals.
    if (target.kind === 'cloudflare') {
      const answer = (() => {
        try {
          return JSON.parse(text) as { success?: boolean }
        } catch {
          return undefined
        }
      })()
      if (answer?.success !== true) throw new PurgeFailed(`Cloudflare refused: ${text.slice(0, 200)}`, false)
    }
  }
}
