/**
 * `GET /openapi.json`: the OpenAPI 3.1 description of every route, made by `@fastify/swagger` from
 * the same schemas Fastify validates and serialises with, so the document cannot drift from the code.
 * Registered before the routes: swagger collects them as they are added.
 */
import swagger from '@fastify/swagger'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { packageVersion } from '../../lib/version.js'

const openapiPlugin: FastifyPluginAsync = async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Docs hosting API', version: packageVersion },
      servers: [{ url: `http://${app.config.apiHost}` }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    // Shared schemas appear under their own names: `{$ref: 'Project#'}` → `#/components/schemas/Project`.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`),
    },
  })
  app.get('/openapi.json', { config: { rateLimit: false }, schema: { hide: true } }, async () =>
    app.swagger(),
  )
}

export const openapiRoutes = fp(openapiPlugin, { name: 'openapi' })
