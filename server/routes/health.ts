/**
 * `GET /health`: the process is up and answering (a liveness probe: restart it when this fails).
 * `GET /ready`: the database and the blob store answer (a readiness probe: send it traffic when this
 * passes). While the database is away a replica stays up, serves the sites it has resolved from
 * memory, and answers 503 here until it is back.
 */
import { Health, Readiness, ref } from '../../schemas/api/index.js'
import type { ApiRoutes } from '../schemas.js'

/** Each dependency gets this long to answer before it counts as unreachable. */
const probeTimeoutMs = 2000

const withinTimeout = <T>(promise: Promise<T>): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      setTimeout(() => reject(new Error(`no answer within ${probeTimeoutMs} ms`)), probeTimeoutMs).unref()
    }),
  ])

export const healthRoutes: ApiRoutes = async (app) => {
  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['health'],
        summary: 'Check the server process is up',
        response: { 200: ref(Health) },
      },
    },
    async () => ({ ok: true, timestamp: new Date().toISOString() }),
  )

  app.get(
    '/ready',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['health'],
        summary: 'Check the database and the blob store answer',
        response: { 200: ref(Readiness), 503: ref(Readiness) },
      },
    },
    async (_request, reply) => {
      const [database, blobStore] = await Promise.all([
        withinTimeout(app.repos.health.ping()).then(
          () => 'ok' as const,
          (error: unknown) => {
            app.log.warn({ err: error }, 'readiness: database unreachable')
            return 'unreachable' as const
          },
        ),
        withinTimeout(app.blobs.check()).then(
          () => 'ok' as const,
          (error: unknown) => {
            app.log.warn({ err: error }, 'readiness: blob store unreachable')
            return 'unreachable' as const
          },
        ),
      ])
      const ok = database === 'ok' && blobStore === 'ok'
      return reply.code(ok ? 200 : 503).send({
        ok,
        timestamp: new Date().toISOString(),
        database,
        blobStore,
        changes: app.siteChanges.listening ? ('listening' as const) : ('polling' as const),
      })
    },
  )
}
