/**
 * Purges the CDN by the tags pages carry (`Cache-Tag` for Cloudflare, `Surrogate-Key` for Fastly and Varnish:
 * `project-<id>` on every file of a project's sites, `deployment-<id>` on every file of a deployment)
 * when a deployment goes live, a domain starts or stops serving, a project is deleted, or garbage
 * collection deletes deployments. A purge runs in the background and is retried with backoff on a
 * network error, a 429 or a 5xx; other answers are logged and dropped (a wrong token will not mend).
 */
import { createHmac } from 'node:crypto'
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

export interface PurgerOptions {
  /** Attempts per request, the first included. */
  attempts?: number
  /** Wait before the second attempt; doubled each time. */
  backoffMs?: number
  timeoutMs?: number
}

class PurgeFailed extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message)
  }
}

export class CdnPurger {
  readonly #pending = new Set<Promise<boolean>>()
  readonly #attempts: number
  readonly #backoffMs: number
  readonly #timeoutMs: number
  #closed = false

  constructor(
    readonly target: CdnPurgeTarget,
    private readonly log: PurgeLog,
    options: PurgerOptions = {},
  ) {
    this.#attempts = options.attempts ?? 6
    this.#backoffMs = options.backoffMs ?? 500
    this.#timeoutMs = options.timeoutMs ?? 10_000
  }

  get enabled(): boolean {
    return this.target.kind !== 'none'
  }

  purgeProject(projectId: string, reason: PurgeReason): Promise<boolean> {
    return this.purge([projectTag(projectId)], reason)
  }

  /**
   * Purges `tags` in the background; the promise (which callers need not await) tells whether every
   * request was accepted in the end. Never rejects.
   */
  purge(tags: readonly string[], reason: PurgeReason): Promise<boolean> {
    if (!this.enabled || tags.length === 0) return Promise.resolve(true)
    const size = batchSize[this.target.kind as keyof typeof batchSize]
    const batches: string[][] = []
    for (let start = 0; start < tags.length; start += size) batches.push(tags.slice(start, start + size))
    const done = Promise.all(batches.map((batch) => this.#send(batch, reason))).then((results) =>
      results.every(Boolean),
    )
    this.#pending.add(done)
    void done.finally(() => this.#pending.delete(done))
    return done
  }

  /** Waits for purges under way; retries stop waiting between attempts. */
  async close(): Promise<void> {
    this.#closed = true
    await Promise.all(this.#pending)
  }

  async #send(tags: string[], reason: PurgeReason): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#request(tags, reason)
        this.log.info({ cdn: this.target.kind, tags, reason, attempt }, 'CDN purged')
        return true
      } catch (error) {
        const failed = error instanceof PurgeFailed ? error : new PurgeFailed(String(error), true)
        if (!failed.retryable || attempt >= this.#attempts || this.#closed) {
          this.log.error(
            { cdn: this.target.kind, tags, reason, attempt, error: failed.message },
            'CDN purge failed; pages may stay cached until their CDN lifetime ends',
          )
          return false
        }
        this.log.warn(
          { cdn: this.target.kind, tags, attempt, error: failed.message },
          'CDN purge failed; retrying',
        )
        await new Promise((resolve) => setTimeout(resolve, this.#backoffMs * 2 ** (attempt - 1)))
      }
    }
  }

  async #request(tags: string[], reason: PurgeReason): Promise<void> {
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
        body = JSON.stringify({ event: 'purge', reason, tags })
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
