/** `GET /health`: the process answers and the database responds. */
import { Health, ref } from '../../schemas/api/index.js'
import type { ApiRoutes } from '../schemas.js'

export const healthRoutes: ApiRoutes = async (app) => {
  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['health'],
        summary: 'Check the server and its database',
        response: {
          200: ref(Health),
          503: ref(Health),
        },
      },
    },
    async (_request, reply) => {
      const timestamp = new Date().toISOString()
      try {
        await app.repos.health.ping()
        return { ok: true, timestamp }
      } catch (error) {
        app.log.error({ err: error }, 'health check: database unreachable')
        return reply.code(503).send({ ok: false, timestamp, error: 'database unreachable' })
      }
    },
  )
}
