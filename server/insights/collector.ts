/**
 * `<site>/_docs/events` on every site host (the live site, each custom domain under its path prefix):
 * the reader events a site's own script sends with `navigator.sendBeacon`. Same origin as the page, so
 * the site's Content-Security-Policy (`connect-src 'self'`) allows it and no cookie or third party is
 * involved. Every answer is `Cache-Control: no-store`, so a CDN passes each event through.
 *
 * An event is kept only when the reader did not ask not to be tracked (`DNT: 1`, `Sec-GPC: 1`), the
 * project keeps insights, the client is within its rate limit, and the event is valid: its shape and
 * size, and its page a page of the live deployment (a 404 a path that is none). Previews count nothing.
 * Nothing of the request but the event is kept: the address and user agent only feed the day's
 * visitor hash (daily-salt.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { LRUCache } from 'lru-cache'
import { READER_EVENTS_PATH } from '../../serving/reader-events.js'
import { parseSiteUrl, routeSitePath } from '../../serving/router.js'
import type { ServerConfig } from '../config.js'
import type { Repositories } from '../db/repositories/index.js'
import type { Issue } from '../errors.js'
import { ClientRateLimit, type SharedWindows } from '../sites/client-rate-limit.js'
import { pickTarget } from '../sites/resolve-host.js'
import type { FileLookup } from '../sites/site-files.js'
import type { SiteEndpoint, SiteLookup } from '../sites/site-server.js'
import type { InsightBatcher } from './batcher.js'
import { type DailySalt, utcDay } from './daily-salt.js'
import { maxEventBytes, parseReaderEvent, type ReaderEvent } from './event.js'

/** The endpoint's path under a site's root. */
export const EVENTS_PATH = READER_EVENTS_PATH

/** A cheap first look on the hot path: only URLs whose path ends in `/_docs/events` go further here. */
export function mayBeEventsRequest(url: string | undefined): boolean {
  if (!url) return false
  const query = url.indexOf('?')
  return (query === -1 ? url : url.slice(0, query)).endsWith(`/${EVENTS_PATH}`)
}

/** True when the reader asked not to be tracked: Do-Not-Track or Global Privacy Control. */
export const optedOut = (request: IncomingMessage): boolean =>
  request.headers.dnt === '1' || request.headers['sec-gpc'] === '1'

/** Whether `path` (site-relative, `guide/setup/`) is a page of the deployment. */
const isPage = (files: FileLookup, path: string): boolean =>
  (path === '' || path.endsWith('/')) && files.has(`${path}index.html`)

/** What is wrong with the event's pages for this deployment, as issues (none: fine). */
function pageIssues(files: FileLookup, event: ReaderEvent): Issue[] {
  switch (event.type) {
    case 'search':
      return event.opened === undefined || event.opened === null || isPage(files, event.opened)
        ? []
        : [{ path: '/opened', message: 'is no page of this site' }]
    case 'not-found': {
      const route = routeSitePath(event.path, '', files)
      return route.type === 'not-found' ? [] : [{ path: '/path', message: 'is a page or file of this site' }]
    }
    default:
      return isPage(files, event.path) ? [] : [{ path: '/path', message: 'is no page of this site' }]
  }
}

const noStore = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }

export interface CollectorOptions {
  clock?: () => number
  /** Rate-limit windows every replica shares (Redis); per process without. */
  sharedWindows?: SharedWindows
}

export class InsightCollector implements SiteEndpoint {
  readonly #limit: ClientRateLimit
  /** Whether a project keeps insights, for a few seconds: a switch reaches every replica that soon. */
  readonly #enabled = new LRUCache<string, boolean>({ max: 10_000, ttl: 10_000, ttlResolution: 0 })
  readonly #clock: () => number

  constructor(
    config: Pick<ServerConfig, 'insightsRateLimitPerMinute' | 'trustProxy'>,
    private readonly sites: SiteLookup,
    private readonly repos: Pick<Repositories, 'insights'>,
    private readonly salt: DailySalt,
    private readonly batcher: InsightBatcher,
    options: CollectorOptions = {},
  ) {
    this.#limit = new ClientRateLimit(
      config.insightsRateLimitPerMinute,
      config.trustProxy,
      'insights',
      options.sharedWindows,
    )
    this.#clock = options.clock ?? Date.now
  }

  mayAnswer(url: string | undefined): boolean {
    return mayBeEventsRequest(url)
  }

  /** Forgets a project's cached switch (the API calls this on the replica that changed it). */
  forget(projectId: string): void {
    this.#enabled.delete(projectId)
  }

  /**
   * What is known at once is not awaited (the site of a host, the project's switch, the rate limit, the
   * day's salt): each step that waits costs the serving thread a promise and a turn of its queue, and
   * nearly every event finds all of them known.
   */
  async answer(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const resolved = this.sites.hosts.resolve(request.headers.host ?? '')
    const lookup = resolved instanceof Promise ? await resolved : resolved
    if (!('targets' in lookup)) return false
    const url = parseSiteUrl(request.url ?? '/')
    if ('invalid' in url) return false
    const site = pickTarget(lookup.targets, url.path)
    if (!site || url.path !== `${site.pathPrefix}/${EVENTS_PATH}`) return false
    if (request.method !== 'POST') {
      send(response, 405, { error: 'Send reader events with POST' }, { allow: 'POST' })
      return true
    }
    if (
      site.preview ||
      optedOut(request) ||
      !(this.#enabled.get(site.projectId) ?? (await this.#keeps(site.projectId)))
    ) {
      request.resume()
      send(response, 204)
      return true
    }
    const address = this.#limit.clientAddress(request)
    const taken = this.#limit.take(request, 1, this.#clock(), address)
    const limited = taken instanceof Promise ? await taken : taken
    if (limited) {
      request.resume()
      send(
        response,
        429,
        { error: `Rate limit exceeded: retry in ${limited.retryAfterSeconds} seconds` },
        { 'retry-after': String(limited.retryAfterSeconds) },
      )
      return true
    }
    const body = await readBody(request, maxEventBytes)
    if (!body) {
      send(
        response,
        400,
        { error: `The event is larger than ${maxEventBytes} bytes` },
        { connection: 'close' },
      )
      return true
    }
    const parsed = parseReaderEvent(body)
    if ('error' in parsed) {
      send(
        response,
        400,
        parsed.issues ? { error: parsed.error, issues: parsed.issues } : { error: parsed.error },
      )
      return true
    }
    const files = await this.sites.filesOf(site.deploymentId)
    const issues = files
      ? await files.lookup((lookup) => pageIssues(lookup, parsed.event))
      : [{ path: '/path', message: 'no live site' }]
    if (issues.length > 0) {
      send(response, 400, { error: 'The event names no page of this site', issues })
      return true
    }
    const day = utcDay(this.#clock())
    const hashed =
      parsed.event.type === 'view'
        ? this.salt.visitor(day, site.projectId, address, request.headers['user-agent'] ?? '')
        : undefined
    const visitor = hashed instanceof Promise ? await hashed : hashed
    this.batcher.add({ projectId: site.projectId, day, event: parsed.event, ...(visitor ? { visitor } : {}) })
    send(response, 204)
    return true
  }

  /** Whether a project keeps insights, from the database (and cached): `#enabled` did not know. */
  async #keeps(projectId: string): Promise<boolean> {
    const enabled = await this.repos.insights.enabled(projectId)
    this.#enabled.set(projectId, enabled)
    return enabled
  }
}

function send(
  response: ServerResponse,
  status: number,
  body?: { error: string; issues?: Issue[] },
  headers: Record<string, string> = {},
): void {
  if (!body) {
    response.writeHead(status, { ...noStore, ...headers })
    response.end()
    return
  }
  const bytes = Buffer.from(JSON.stringify(body))
  response.writeHead(status, {
    ...noStore,
    'content-type': 'application/json; charset=utf-8',
    'content-length': bytes.length,
    ...headers,
  })
  response.end(bytes)
}

/**
 * The request body, or `undefined` when it is larger than `limit` (the rest is then not read). Read with
 * plain listeners: an event's body is one chunk, and an async iterator costs more than the chunk does.
 */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(undefined)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      request.off('data', onData)
      request.pause()
      resolve(undefined)
    }
    // `on`, not `once`: each request is read once, and a promise settles once, so `once`'s wrappers
    // would be garbage for nothing.
    request.on('data', onData)
    request.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)))
    request.on('error', reject)
    // A client gone before its body ended: what an async iterator would throw, so the server logs it the same way.
    request.on('close', () => {
      if (!request.complete) reject(new Error('the client closed the request before its body ended'))
    })
  })
}
