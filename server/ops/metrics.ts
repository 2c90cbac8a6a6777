/**
 * Prometheus metrics (prom-client), one registry per app: API requests by route and status, site
 * answers and their latency, prepared-answer cache hits, the shared build queue's depth, this
 * replica's build durations and its reader events waiting to be written or dropped. `GET /metrics` answers on the API host only, to a bearer token
 * (`--metrics-token`), compared in constant time; without a token configured it is a 404.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Counter, collectDefaultMetrics, Gauge, Histogram, type Metric, Registry } from 'prom-client'
import { errorResponses } from '../../schemas/api/index.js'
import type { SiteAnswerObserver } from '../sites/site-server.js'

declare module 'fastify' {
  interface FastifyInstance {
    metrics: DocsMetrics
  }
}

export class DocsMetrics {
  readonly registry = new Registry()
  readonly requests = new Counter({
    name: 'docs_http_requests_total',
    help: 'API requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  })
  /** Site answers, counted in plain numbers as they are written and handed to prom-client when scraped. */
  readonly siteAnswers = new SiteAnswerCounts(SERVE_BUCKETS)
  readonly siteRequests = siteRequestsCounter(this.registry, this.siteAnswers)
  readonly cacheLookups = cacheLookupsCounter(this.registry, this.siteAnswers)
  readonly buildSeconds = new Histogram({
    name: 'docs_build_duration_seconds',
    help: 'Builds run by this replica, by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600],
    registers: [this.registry],
  })

  constructor(queueDepth: () => Promise<{ queued: number; leased: number }>, running: () => number) {
    collectDefaultMetrics({ register: this.registry })
    this.registry.registerMetric(serveSecondsHistogram(this.siteAnswers))
    new Gauge({
      name: 'docs_build_queue_jobs',
      help: 'Build jobs in the shared queue, by state (every replica)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        const depth = await queueDepth().catch(() => undefined)
        if (!depth) return
        this.set({ state: 'queued' }, depth.queued)
        this.set({ state: 'leased' }, depth.leased)
      },
    })
    new Gauge({
      name: 'docs_builds_running',
      help: 'Builds running on this replica',
      registers: [this.registry],
      collect() {
        this.set(running())
      },
    })
  }

  /**
   * `docs_insight_events_waiting` and `docs_insight_events_dropped_total`: reader events this replica
   * accepted and has not written yet (a second's batch, or everything while the database is away), and
   * those it dropped because too many waited or the database refused what they hold (insights/batcher.ts).
   */
  watchInsights(batcher: { readonly waiting: number; readonly dropped: number }): void {
    new Gauge({
      name: 'docs_insight_events_waiting',
      help: 'Reader events accepted by this replica and not yet written',
      registers: [this.registry],
      collect() {
        this.set(batcher.waiting)
      },
    })
    let reported = 0
    new Counter({
      name: 'docs_insight_events_dropped_total',
      help: 'Reader events this replica dropped: too many waited for the database, or it refused them',
      registers: [this.registry],
      collect() {
        if (batcher.dropped > reported) this.inc(batcher.dropped - reported)
        reported = batcher.dropped
      },
    })
  }
}

/** Upper bounds of the site latency buckets, in seconds. */
const SERVE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1] as const

/**
 * Site answers as plain numbers: a prom-client `observe` and two `inc`s cost about a microsecond, a
 * tenth of serving a cached page, so the hot path adds to typed arrays and scrapes read them.
 */
export class SiteAnswerCounts implements SiteAnswerObserver {
  /** Answers by HTTP status (index 100–599). */
  readonly byStatus = new Float64Array(600)
  /** Answers per latency bucket, not cumulative; the last is above every bound. */
  readonly buckets: Float64Array
  seconds = 0
  answers = 0
  hits = 0
  misses = 0

  constructor(readonly bounds: readonly number[]) {
    this.buckets = new Float64Array(bounds.length + 1)
  }

  answered(status: number, seconds: number): void {
    this.byStatus[status >= 100 && status < 600 ? status : 500]!++
    let bucket = 0
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++
    this.buckets[bucket]!++
    this.seconds += seconds
    this.answers++
  }

  cacheLookup(hit: boolean): void {
    if (hit) this.hits++
    else this.misses++
  }
}

/** `docs_site_requests_total{status}`: the counts so far, added to the counter at each scrape. */
function siteRequestsCounter(registry: Registry, counts: SiteAnswerCounts) {
  const reported = new Float64Array(600)
  return new Counter({
    name: 'docs_site_requests_total',
    help: 'Site answers by status',
    labelNames: ['status'] as const,
    registers: [registry],
    collect() {
      counts.byStatus.forEach((count, status) => {
        if (count === reported[status]) return
        this.inc({ status: String(status) }, count - reported[status]!)
        reported[status] = count
      })
    },
  })
}

function cacheLookupsCounter(registry: Registry, counts: SiteAnswerCounts) {
  let reported = { hits: 0, misses: 0 }
  return new Counter({
    name: 'docs_site_cache_lookups_total',
    help: 'Site answers served from the prepared-answer cache (hit) or built (miss)',
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      if (counts.hits > reported.hits) this.inc({ result: 'hit' }, counts.hits - reported.hits)
      if (counts.misses > reported.misses) this.inc({ result: 'miss' }, counts.misses - reported.misses)
      reported = { hits: counts.hits, misses: counts.misses }
    },
  })
}

/**
 * `docs_site_serve_seconds`: a histogram read straight from the counts. prom-client's registry formats
 * any metric that answers `get()` with its values; its Histogram class has no way to take counts made
 * elsewhere, so this is the object the registry reads, in the shape its own histograms give.
 */
function serveSecondsHistogram(counts: SiteAnswerCounts): Metric {
  const name = 'docs_site_serve_seconds'
  const help = 'Time to answer a site request'
  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    collect: () => {},
    reset: () => {},
    get: async () => {
      let cumulative = 0
      const values = counts.bounds.map((bound, index) => {
        cumulative += counts.buckets[index]!
        return { metricName: `${name}_bucket`, labels: { le: bound }, value: cumulative }
      })
      values.push(
        { metricName: `${name}_bucket`, labels: { le: '+Inf' as unknown as number }, value: counts.answers },
        { metricName: `${name}_sum`, labels: {} as { le: number }, value: counts.seconds },
        { metricName: `${name}_count`, labels: {} as { le: number }, value: counts.answers },
      )
      return { name, help, type: 'histogram', aggregator: 'sum', values }
    },
  }
  return metric as unknown as Metric
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest()

export const metrics = fp(
  async (app: FastifyInstance) => {
    const registry = new DocsMetrics(
      () => app.repos.buildJobs.depth(),
      () => app.builds.runningCount,
    )
    app.decorate('metrics', registry)
    app.addHook('onResponse', async (request, reply) => {
      registry.requests.inc({
        method: request.method,
        // The route's pattern, not the URL: ids and slugs would make a series each.
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      })
    })
  },
  { name: 'metrics', dependencies: ['database'] },
)

/**
 * `GET /metrics`, registered with the other routes (after the OpenAPI plugin, so `/openapi.json` lists it);
 * the hook above, registered before every route, counts them all.
 */
export const metricsRoutes = async (app: FastifyInstance): Promise<void> => {
  const token = app.config.metricsToken
  const metricsSchema = {
    tags: ['health'],
    summary: 'Prometheus metrics (needs --metrics-token, sent as a bearer token)',
    produces: ['text/plain'],
    response: {
      200: { description: 'Prometheus text exposition format', type: 'string' },
      401: errorResponses[401],
      404: errorResponses[404],
    },
  } as const
  app.get('/metrics', { config: { rateLimit: false }, schema: metricsSchema }, async (request, reply) => {
    if (!token)
      return reply.code(404).send({ error: 'No route GET /metrics: set --metrics-token to turn it on' })
    const header = request.headers.authorization ?? ''
    const given = header.startsWith('Bearer ') ? header.slice(7) : ''
    if (!timingSafeEqual(digest(given), digest(token))) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ error: 'GET /metrics needs Authorization: Bearer <the --metrics-token value>' })
    }
    return reply.type(app.metrics.registry.contentType).send(await app.metrics.registry.metrics())
  })
}
