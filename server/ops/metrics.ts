/**
 * Prometheus metrics (prom-client), one registry per app: API requests by route and status, site
 * answers and their latency, prepared-answer cache hits, the shared build queue's depth and this
 * replica's build durations. `GET /metrics` answers on the API host only, to a bearer token
 * (`--metrics-token`), compared in constant time; without a token configured it is a 404.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { errorResponses } from '../../schemas/api/index.js'

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
  readonly siteRequests = new Counter({
    name: 'docs_site_requests_total',
    help: 'Site answers by status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  })
  readonly serveSeconds = new Histogram({
    name: 'docs_site_serve_seconds',
    help: 'Time to answer a site request',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  })
  readonly cacheLookups = new Counter({
    name: 'docs_site_cache_lookups_total',
    help: 'Site answers served from the prepared-answer cache (hit) or built (miss)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  })
  readonly buildSeconds = new Histogram({
    name: 'docs_build_duration_seconds',
    help: 'Builds run by this replica, by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600],
    registers: [this.registry],
  })

  constructor(queueDepth: () => Promise<{ queued: number; leased: number }>, running: () => number) {
    collectDefaultMetrics({ register: this.registry })
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

  /** The site-answer counter of each status, found once: the serving hot path skips label hashing. */
  readonly #siteRequestsByStatus = new Map<number, Counter.Internal>()

  /** Count a site answer and its latency once it is written. */
  observeSite(response: ServerResponse): void {
    const end = this.serveSeconds.startTimer()
    response.once('finish', () => {
      end()
      const status = response.statusCode
      let counter = this.#siteRequestsByStatus.get(status)
      if (!counter) {
        counter = this.siteRequests.labels(String(status))
        this.#siteRequestsByStatus.set(status, counter)
      }
      counter.inc()
    })
  }
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
