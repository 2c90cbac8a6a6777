/**
 * buildApp(config) → a Fastify instance: opens storage, registers plugins, then one plugin per
 * resource. main.ts only listens and shuts down. Host decides the audience: the API host (or a bare
 * IP address) reaches the API; any other host is a site, answered by server/sites before routing.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { isIP } from 'node:net'
import { join } from 'node:path'
import rateLimit from '@fastify/rate-limit'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { Kysely } from 'kysely'
import { actor } from './auth/actor.js'
import { hashToken } from './auth/tokens.js'
import { FilesystemBlobStore } from './blobs/filesystem.js'
import type { BlobStore } from './blobs/store.js'
import { BuildPipeline } from './builds/pipeline.js'
import { UploadExpiry } from './builds/upload-expiry.js'
import type { ServerConfig } from './config.js'
import { type DatabaseEngine, migrateToLatest, openDatabase } from './db/index.js'
import { createRepositories, type Repositories } from './db/repositories/index.js'
import type { Database } from './db/schema.js'
import { ApiError, type Issue } from './errors.js'
import { analyticsRoutes } from './routes/analytics.js'
import { deployKeyRoutes } from './routes/deploy-keys.js'
import { deploymentRoutes } from './routes/deployments.js'
import { healthRoutes } from './routes/health.js'
import { meRoutes } from './routes/me.js'
import { oauthRoutes } from './routes/oauth.js'
import { openapiRoutes } from './routes/openapi.js'
import { projectRoutes } from './routes/projects.js'
import { schemaRoutes } from './routes/schemas.js'
import { apiSchemas } from './schemas.js'
import { SiteServer } from './sites/site-server.js'

/** Optional hooks that other areas fill in; each has a safe default. */
export interface AppHooks {
  /** Analytics settings of a project, passed to its builds (the analytics routes fill this). */
  loadAnalytics: (projectId: string) => Promise<{ posthog?: { key: string; host: string } } | undefined>
}

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig
    db: Kysely<Database>
    dbEngine: DatabaseEngine
    repos: Repositories
    blobs: BlobStore
    hooks: AppHooks
    builds: BuildPipeline
    sites: SiteServer
  }
}

export interface AppOptions {
  logger?: FastifyServerOptions['logger']
  hooks?: Partial<AppHooks>
}

/** Host header without port, lowercased; `undefined` when absent. */
const hostOf = (request: IncomingMessage): string | undefined => request.headers.host?.toLowerCase()

/** True when a request's Host should reach the API rather than a site. */
export function isApiHost(config: Pick<ServerConfig, 'apiHost'>, host: string | undefined): boolean {
  if (host === undefined || host === '' || host === config.apiHost) return true
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '')
  // The API's host name on any port (a proxy may add or drop it; inject() sends `localhost:80`).
  return isIP(name) !== 0 || name === config.apiHost.replace(/:\d+$/, '')
}

export async function buildApp(config: ServerConfig, options: AppOptions = {}): Promise<FastifyInstance> {
  const { db, engine, schema } = openDatabase(config)
  await migrateToLatest(db, schema)
  const repos = createRepositories(db)
  await repos.deployments.failInterrupted()
  const blobs = new FilesystemBlobStore(join(config.dataDir, 'blobs'))

  const sites = new SiteServer(config, repos, blobs)
  const dispatchSite = sites.handle
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: config.maxRequestBytes,
    // Site requests skip Fastify entirely on a real socket: the hot path is a plain Node handler.
    serverFactory: (handler) => {
      // Remember each Host's audience: the check runs on every request of the hot path.
      const audience = new Map<string | undefined, boolean>()
      return createServer((request, response) => {
        const host = request.headers.host
        let api = audience.get(host)
        if (api === undefined) {
          api = isApiHost(config, hostOf(request))
          if (audience.size > 10_000) audience.clear()
          audience.set(host, api)
        }
        if (api) handler(request, response)
        else dispatchSite(request, response)
      }) as Server
    },
    // No type coercion: JSON of the wrong shape is a 400, not silently converted.
    ajv: {
      customOptions: { allErrors: true, removeAdditional: false, coerceTypes: false, useDefaults: true },
    },
  })
  app.decorate('config', config)
  app.decorate('db', db)
  app.decorate('dbEngine', engine)
  app.decorate('repos', repos)
  app.decorate('blobs', blobs)
  app.decorate('hooks', { loadAnalytics: async () => undefined, ...options.hooks })
  app.decorate('sites', sites)
  sites.onError = (error, request) =>
    app.log.error({ err: error, host: request.headers.host, url: request.url }, 'site request failed')
  const builds = new BuildPipeline(app, blobs, {
    concurrency: config.buildWorkers,
    timeoutMs: config.buildTimeoutSeconds * 1000,
    pageTimeoutMs: config.pageTimeoutSeconds * 1000,
    memoryMb: config.buildMemoryMb,
  })
  app.decorate('builds', builds)
  const uploadExpiry = new UploadExpiry(repos, blobs, config.uploadExpirySeconds * 1000, app.log)
  uploadExpiry.start()
  // Close waits for in-flight builds (they write to the database) before closing the database.
  app.addHook('onClose', async () => {
    await uploadExpiry.stop()
    await builds.close()
    await db.destroy()
  })
  // inject() and any request that reached Fastify on a site host: same handler as the socket fast path.
  app.addHook('onRequest', async (request, reply) => {
    if (isApiHost(config, request.headers.host?.toLowerCase())) return
    reply.hijack()
    await new Promise<void>((resolve) => {
      reply.raw.once('finish', resolve)
      reply.raw.once('close', resolve)
      dispatchSite(request.raw, reply.raw)
    })
  })

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.headers) reply.headers(error.headers)
      return reply
        .code(error.statusCode)
        .send(error.issues ? { error: error.message, issues: error.issues } : { error: error.message })
    }
    if (error.validation) {
      const issues: Issue[] = error.validation.map((item) => {
        const missing = item.keyword === 'required' ? `/${String(item.params.missingProperty)}` : ''
        const extra =
          item.keyword === 'additionalProperties' ? `/${String(item.params.additionalProperty)}` : ''
        const where = `${error.validationContext ?? 'body'}${item.instancePath}${missing}${extra}`
        return {
          path: where,
          message: item.keyword === 'additionalProperties' ? 'unknown property' : (item.message ?? 'invalid'),
        }
      })
      return reply.code(400).send({ error: `Invalid request ${error.validationContext ?? 'body'}`, issues })
    }
    const status = error.statusCode ?? 500
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed')
      return reply.code(500).send({ error: 'Internal server error' })
    }
    if (status === 429) return reply.code(429).send({ error: error.message })
    return reply.code(status).send({ error: error.message })
  })
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ error: `No route ${request.method} ${request.url.split('?')[0]}` })
  })

  await app.register(actor)
  await app.register(rateLimit, {
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    // Per token when it is valid (hashed, so keys in memory are not credentials), else per IP: made-up
    // tokens share their IP's budget, so guessing tokens is limited too.
    keyGenerator: (request) => {
      const header = request.headers.authorization
      return header && request.actor ? `token:${hashToken(header)}` : `ip:${request.ip}`
    },
    errorResponseBuilder: (_request, context) => {
      const error = new ApiError(429, `Rate limit exceeded: retry in ${context.after}`) as ApiError & {
        statusCode: number
      }
      return error
    },
  })

  for (const schema of apiSchemas()) app.addSchema(schema)
  // First, so its onRoute hook sees every route registered after it.
  await app.register(openapiRoutes)

  // Routes: one plugin per resource. Other areas add one line each here.
  await app.register(healthRoutes)
  await app.register(schemaRoutes)
  await app.register(projectRoutes)
  await app.register(deploymentRoutes)
  await app.register(oauthRoutes)
  await app.register(meRoutes)
  await app.register(deployKeyRoutes)
  await app.register(analyticsRoutes)

  return app
}
