/**
 * The service as one Fastify plugin, `docsApp`: storage first, then the request-wide plugins (who is
 * calling, rate limits, errors), then one plugin per resource. `buildApp(config)` creates the Fastify
 * instance around it; main.ts only listens and shuts down. Host decides the audience: the API host (or
 * a bare IP address) reaches the API; any other host is a site, answered by server/sites before routing.
 */
import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { isIP } from 'node:net'
import rateLimit from '@fastify/rate-limit'
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify'
import fp from 'fastify-plugin'
import type { RenderPool } from '../compiler/pool/render-pool.js'
import { apiSchemas } from '../schemas/api/index.js'
import { actor } from './auth/actor.js'
import { readOnlyReason } from './blobs/disk-space.js'
import { openBlobStore } from './blobs/open.js'
import type { BlobStore } from './blobs/store.js'
import { type BuildLimits, BuildPipeline } from './builds/pipeline.js'
import { CdnPurger } from './cdn/purger.js'
import type { ServerConfig } from './config.js'
import { dashboardRoutes } from './dashboard/routes.js'
import { createDataDir } from './db/index.js'
import { database } from './db/plugin.js'
import { DeploymentService } from './deployments/service.js'
import { UploadExpiry } from './deployments/upload-expiry.js'
import { DomainVerifier } from './domains/verifier.js'
import {
  ApiError,
  isOutOfSpace,
  outageMessage,
  outageRetryAfterSeconds,
  outOfStorage,
  unavailableDependency,
} from './errors.js'
import { GarbageCollector } from './gc/collector.js'
import { GcSchedule } from './gc/schedule.js'
import { gitDeploys } from './git/plugin.js'
import { InsightsService } from './insights/service.js'
import { SqliteInsightWriter } from './insights/sqlite-writer.js'
import { lazySerializers } from './lazy-serializers.js'
import { SiteMcp } from './mcp/site-mcp.js'
import { ConnectionDrain } from './ops/connection-drain.js'
import { metrics, metricsRoutes } from './ops/metrics.js'
import { siteUrl } from './presenters.js'
import { ChangeReports } from './previews/reports.js'
import { analyticsRoutes } from './routes/analytics.js'
import { changeReportRoutes } from './routes/change-reports.js'
import { deployKeyRoutes } from './routes/deploy-keys.js'
import { deploymentDiagnosticRoutes } from './routes/deployment-diagnostics.js'
import { deploymentFileRoutes } from './routes/deployment-files.js'
import { deploymentRoutes } from './routes/deployments.js'
import { domainRoutes } from './routes/domains.js'
import { gitRoutes } from './routes/git.js'
import { gitWebhookRoutes } from './routes/git-webhooks.js'
import { healthRoutes } from './routes/health.js'
import { insightsRoutes } from './routes/insights.js'
import { meRoutes } from './routes/me.js'
import { oauthRoutes } from './routes/oauth.js'
import { openapiRoutes } from './routes/openapi.js'
import { projectRoutes } from './routes/projects.js'
import { schemaRoutes } from './routes/schemas.js'
import { SiteChangeFeed } from './sites/change-feed.js'
import { redisWindows } from './sites/client-rate-limit.js'
import { readSiteHeaders, rejectSeveralHosts } from './sites/host-header.js'
import { SiteChanged } from './sites/site-changed.js'
import { SiteServer } from './sites/site-server.js'
import { hashToken } from './tokens.js'
import { validationIssues } from './validation-issues.js'

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig
    blobs: BlobStore
    builds: BuildPipeline
    /** The one deployment flow: create, receive files, finalize; REST and Git deploys call it. */
    deploymentService: DeploymentService
    /** Change reports of preview deployments against the live one. */
    changeReports: ChangeReports
    sites: SiteServer
    siteChanges: SiteChangeFeed
    domains: DomainVerifier
    cdn: CdnPurger
    /** The one call for "a site changed": tells every replica and purges the CDN. */
    siteChanged: SiteChanged
    gc: GarbageCollector
    /** Reader events in (each site's `/_docs/events`), daily aggregates and reports out. */
    insights: InsightsService
    /** Why the server refuses changes (its disk was full at start), or null. */
    readOnly: string | null
  }
}

export interface AppOptions {
  logger?: FastifyServerOptions['logger']
  /** Told each step of start-up as it begins, so a start that hangs can say where. */
  onStep?: (step: string) => void
  /**
   * Build threads the app borrows instead of starting its own (`buildThreadPool` for the config's
   * build limits); the app leaves them open when it closes. Tests share one per process.
   */
  renderPool?: RenderPool
}

/** What the settings give a replica's builds. */
export function buildLimits(config: ServerConfig): BuildLimits {
  return {
    concurrency: config.buildWorkers,
    timeoutMs: config.buildTimeoutSeconds * 1000,
    pageTimeoutMs: config.pageTimeoutSeconds * 1000,
    memoryMb: config.buildMemoryMb,
    leaseMs: config.buildLeaseSeconds * 1000,
    pollMs: 1000,
  }
}

/** True when a request's Host header should reach the API rather than a site. */
export function isApiHost(config: Pick<ServerConfig, 'apiHost'>, header: string | undefined): boolean {
  if (header === undefined || header === '' || header === config.apiHost) return true
  const host = header.toLowerCase()
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '')
  // The API's host name on any port (a proxy may add or drop it; inject() sends `localhost:80`).
  return isIP(name) !== 0 || name === config.apiHost.replace(/:\d+$/, '')
}

/** Turns a thrown error into the API's `{error, issues}` body; never a stack trace, never a 500 for bad input. */
function sendError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) {
    if (error.headers) reply.headers(error.headers)
    return reply
      .code(error.statusCode)
      .send(error.issues ? { error: error.message, issues: error.issues } : { error: error.message })
  }
  if (error.validation) {
    const context = error.validationContext ?? 'body'
    const issues = validationIssues(error.validation, context)
    const first = issues[0]
    // The first issue in the message too, for a client that shows only the message.
    const field = first?.path.split('/').slice(1).join('.')
    const summary = first ? `: ${field ? `${field} ` : ''}${first.message}` : ''
    return reply.code(400).send({ error: `Invalid request ${context}${summary}`, issues })
  }
  const dependency = unavailableDependency(error)
  if (dependency) {
    request.log.warn({ err: error }, `${dependency} unreachable`)
    return reply
      .code(503)
      .header('retry-after', String(outageRetryAfterSeconds))
      .send({ error: outageMessage(dependency, error) })
  }
  if (isOutOfSpace(error)) {
    request.log.error({ err: error }, 'out of storage space')
    const full = outOfStorage()
    return reply
      .code(full.statusCode)
      .headers(full.headers ?? {})
      .send({ error: full.message })
  }
  const status = error.statusCode ?? 500
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed')
    return reply.code(500).send({ error: 'Internal server error' })
  }
  return reply.code(status).send({ error: error.message })
}

/** The whole service; wrapped with fastify-plugin so its decorators and error handler are the root's. */
export const docsApp = fp<{ config: ServerConfig } & Omit<AppOptions, 'logger'>>(
  async (app, { config, onStep = () => {}, renderPool }) => {
    app.decorate('config', config)
    // A full disk: serve sites, refuse changes, start nothing that writes (see blobs/disk-space.ts).
    const readOnly = (await readOnlyReason(config)) ?? null
    app.decorate('readOnly', readOnly)
    if (readOnly) app.log.warn({ reason: readOnly }, 'starting read-only: sites are served, changes refused')
    onStep('connecting to the database and running its migrations (one process at a time holds their lock)')
    await app.register(database, { config, readOnly: readOnly ?? undefined })
    if (!readOnly) await app.repos.deployments.failInterrupted()
    onStep('loading the services')
    const blobs = await openBlobStore(config)
    app.decorate('blobs', blobs)
    // Registered after the database, so it runs before it: nothing reads blobs once this closes.
    app.addHook('onClose', () => blobs.close())
    // Rate limits (the API's, reader events', MCP's) are shared by every replica when Redis is
    // configured; per process otherwise (ioredis loads only then).
    const redis = config.redisUrl
      ? new (await import('ioredis')).Redis(config.redisUrl, {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          connectTimeout: 2000,
        })
      : undefined
    if (redis) {
      redis.on('error', (error: Error) =>
        app.log.warn(
          { err: error },
          "Redis unreachable; the API's rate limit is skipped and site endpoints count per replica",
        ),
      )
      // Counted from the first request when Redis answers within 2 s; a Redis that is down delays no start.
      app.addHook('onReady', async () => {
        if (redis.status === 'ready') return
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 2000)
          redis.once('ready', () => {
            clearTimeout(timer)
            resolve()
          })
        })
      })
      app.addHook('onClose', async () => {
        await redis.quit().catch(() => redis.disconnect())
      })
    }
    const sharedWindows = redis ? redisWindows(redis) : undefined
    const insights = new InsightsService(config, app.repos, blobs, {
      ...(sharedWindows ? { sharedWindows } : {}),
      // On SQLite, events are written off the thread that serves readers (insights/sqlite-writer.ts).
      ...(app.dbEngine === 'sqlite' && !readOnly ? { writer: new SqliteInsightWriter(config.dataDir) } : {}),
    })
    insights.batcher.onError = (error) =>
      app.log.warn(
        { err: error, waiting: insights.batcher.waiting, dropped: insights.batcher.dropped },
        'reader insights not written yet',
      )
    app.decorate('insights', insights)
    if (!readOnly) app.addHook('onReady', async () => insights.start())
    // Registered after the database, so it runs before it: what is waiting is written first.
    app.addHook('onClose', () => insights.close())
    const sites = new SiteServer(config, app.repos, blobs, (lookup) => [
      new SiteMcp(config, lookup, blobs, sharedWindows),
      insights.endpoint(lookup),
    ])
    sites.onError = (error, request) =>
      app.log.error({ err: error, host: request.headers.host, url: request.url }, 'site request failed')
    app.decorate('sites', sites)
    // Promotions and domain changes reach every replica's site router (LISTEN/NOTIFY on PostgreSQL).
    const siteChanges = new SiteChangeFeed(app.db, app.repos, {
      engine: app.dbEngine,
      databaseUrl: config.databaseUrl,
      databaseSchema: config.databaseSchema,
      pollMs: 250,
    })
    siteChanges.onChange = (change) =>
      'projectId' in change
        ? sites.hosts.forgetProject(change.projectId)
        : sites.hosts.forgetHost(change.hostname)
    siteChanges.onError = (error, message) => app.log.warn({ err: error }, message)
    app.decorate('siteChanges', siteChanges)
    app.addHook('onReady', async () => siteChanges.start())
    app.addHook('onClose', () => siteChanges.close())
    const cdn = new CdnPurger(config.cdnPurge, app.log, app.repos.cdnPurges)
    app.decorate('cdn', cdn)
    // Purges left by a replica that closed or died are finished by whichever replica looks first.
    if (!readOnly) app.addHook('onReady', async () => cdn.start())
    app.addHook('onClose', () => cdn.close())
    const siteChanged = new SiteChanged({
      changes: siteChanges,
      cdn,
      addresses: async (projectId) => {
        const project = await app.repos.projects.findById(projectId)
        if (!project) return []
        const domains = await app.repos.domains.listByProject(projectId)
        return [
          siteUrl(config, project.slug),
          ...domains
            .filter((domain) => domain.status === 'verified')
            .map((domain) => `https://${domain.hostname}${domain.path_prefix}/`),
        ]
      },
    })
    app.decorate('siteChanged', siteChanged)
    // DNS checks of custom domains; a domain that starts or stops serving is forgotten by every
    // replica's site router and purged from the CDN.
    const domains = new DomainVerifier(config, app.repos)
    domains.onServingChange = (hostname, projectId) => void siteChanged.host(hostname, projectId, 'domain')
    domains.onError = (error) => app.log.error({ err: error }, 'domain re-check failed')
    app.decorate('domains', domains)
    // Registered after the database, so it runs before the database closes: a round writes to it.
    app.addHook('onClose', () => domains.close())
    if (!readOnly) app.addHook('onReady', async () => domains.start())
    const builds = new BuildPipeline(app, blobs, buildLimits(config), renderPool)
    builds.onQueued = () => void siteChanges.announceBuild()
    siteChanges.onBuildQueued = () => void builds.wake()
    app.decorate('builds', builds)
    if (!readOnly) app.addHook('onReady', async () => builds.start())
    app.decorate(
      'deploymentService',
      new DeploymentService({ repos: app.repos, blobs, builds, limits: config, clock: Date.now }),
    )
    app.decorate('changeReports', new ChangeReports({ repos: app.repos, blobs, config, log: app.log }))
    const uploadExpiry = new UploadExpiry(app.repos, blobs, config.uploadExpirySeconds * 1000, app.log)
    if (!readOnly) uploadExpiry.start()
    // Retention and garbage collection: deleted deployments leave the site router and the CDN.
    const gc = new GarbageCollector(app.repos, blobs, config.retention)
    gc.onDeploymentsDeleted = (deleted) => void siteChanged.deploymentsDeleted(deleted)
    app.decorate('gc', gc)
    const gcSchedule = new GcSchedule(app.repos, gc, config.retention.intervalSeconds, app.log)
    if (!readOnly) app.addHook('onReady', async () => gcSchedule.start())
    // Registered after the database, so they run before the database closes: builds still write to it.
    app.addHook('onClose', async () => {
      await gcSchedule.stop()
      await uploadExpiry.stop()
      // Running builds get half the shutdown grace, then are stopped and re-queued (the other half is for
      // stopping them and closing the database).
      await builds.close(config.shutdownGraceSeconds * 500)
    })

    // inject() and any request that reached Fastify on a site host: same handler as the socket fast path.
    app.addHook('onRequest', async (request, reply) => {
      if (isApiHost(config, request.headers.host)) return
      reply.hijack()
      await new Promise<void>((resolve) => {
        reply.raw.once('finish', resolve)
        reply.raw.once('close', resolve)
        sites.handle(request.raw, reply.raw)
      })
    })
    if (readOnly) {
      app.addHook('onRequest', async (request) => {
        if (!isApiHost(config, request.headers.host) || ['GET', 'HEAD', 'OPTIONS'].includes(request.method))
          return
        throw new ApiError(
          503,
          `The server is read-only: ${readOnly}; sites are served, but nothing can be changed until space is freed and the server restarted`,
          undefined,
          { 'retry-after': '60' },
        )
      })
    }
    app.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id)
      // Every API answer: never sniffed into another type, never framed. Pages of the API host (the
      // dashboard, sign-in) set their own policy; JSON and redirects get one that allows nothing.
      reply.header('x-content-type-options', 'nosniff')
      if (!reply.hasHeader('content-security-policy'))
        reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
    })
    app.setErrorHandler(sendError)
    app.setNotFoundHandler((request, reply) => {
      reply.code(404).send({ error: `No route ${request.method} ${request.url.split('?')[0]}` })
    })

    await app.register(metrics)
    builds.onBuilt = (seconds, outcome) => app.metrics.buildSeconds.observe({ outcome }, seconds)
    sites.observer = app.metrics.siteAnswers
    app.metrics.watchInsights(app.insights.batcher)

    await app.register(actor)
    await app.register(rateLimit, {
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      ...(redis ? { redis, nameSpace: 'docs-rate-limit:', skipOnError: true } : {}),
      // Per token when it is valid (hashed, so keys in memory are not credentials), else per client
      // address (the forwarded one behind a trusted proxy): made-up tokens share their address's budget.
      keyGenerator: (request) => {
        const header = request.headers.authorization
        return header && request.actor ? `token:${hashToken(header)}` : `ip:${request.ip}`
      },
      errorResponseBuilder: (_request, context) =>
        new ApiError(429, `Rate limit exceeded: retry in ${context.after}`) as ApiError & {
          statusCode: number
        },
    })

    for (const schema of apiSchemas) app.addSchema(schema)
    // First, so its onRoute hook sees every route registered after it.
    await app.register(openapiRoutes)

    // Routes: one plugin per resource. Other areas add one line each here.
    await app.register(healthRoutes)
    await app.register(metricsRoutes)
    await app.register(schemaRoutes)
    await app.register(projectRoutes)
    await app.register(deploymentRoutes)
    await app.register(oauthRoutes)
    await app.register(meRoutes)
    await app.register(deployKeyRoutes)
    await app.register(analyticsRoutes)
    await app.register(insightsRoutes)
    await app.register(domainRoutes)
    await app.register(gitDeploys)
    await app.register(gitRoutes, { webhookKey: app.gitWebhookKey })
    await app.register(gitWebhookRoutes, { webhookKey: app.gitWebhookKey })
    await app.register(deploymentFileRoutes)
    await app.register(deploymentDiagnosticRoutes)
    await app.register(changeReportRoutes)
    await app.register(dashboardRoutes)
  },
  { name: 'docs-app' },
)

/**
 * A Fastify instance serving `config`, ready for listen() or inject(). Site requests on a real socket
 * skip Fastify: the server factory hands them straight to the site server, the hot path.
 */
export async function buildApp(config: ServerConfig, options: AppOptions = {}): Promise<FastifyInstance> {
  // Before anything writes into it (the blob store creates its folders with the default mode).
  createDataDir(config.dataDir)
  // The audience of each Host seen lately: the check runs on every request of the hot path.
  // A plain Map, emptied when it grows past 10,000 hosts (a flood of made-up names), is cheaper than an LRU.
  const audience = new Map<string, boolean>()
  const drain = new ConnectionDrain()
  const app: FastifyInstance = Fastify({
    logger: options.logger ?? false,
    // Every log line of a request carries its id (`reqId`): the caller's X-Request-Id when it is a sane
    // token (a proxy's), else a fresh UUID; the answer echoes it.
    genReqId: (request) => {
      const given = request.headers['x-request-id']
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID()
    },
    bodyLimit: config.maxRequestBytes,
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    serverFactory: (handler) =>
      createServer((request, response) => {
        drain.admit(response)
        const headers = readSiteHeaders(request.rawHeaders)
        if (headers.hostCount > 1) return rejectSeveralHosts(response)
        let api = audience.get(headers.host)
        if (api === undefined) {
          api = isApiHost(config, headers.host)
          if (audience.size >= 10_000) audience.clear()
          audience.set(headers.host, api)
        }
        if (api) handler(request, response)
        else app.sites.handle(request, response, headers)
      }) as Server,
    // Requests that arrive on an open connection while closing are answered (with `Connection: close`,
    // see ConnectionDrain), not refused with 503: a balancer would hand that 503 to a reader.
    return503OnClosing: false,
    // Each route's response serializer is compiled on its first answer (lazy-serializers.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializers() } },
    // No type coercion: JSON of the wrong shape is a 400, not silently converted.
    ajv: {
      customOptions: { allErrors: true, removeAdditional: false, coerceTypes: false, useDefaults: true },
    },
  })
  // Before Fastify closes the server: keep-alive connections end as soon as they are idle.
  app.addHook('preClose', async () => drain.start(app.server))
  const { logger: _logger, ...serviceOptions } = options
  await app.register(docsApp, { ...serviceOptions, config })
  return app
}
