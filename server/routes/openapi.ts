/**
 * `GET /openapi.json`: the OpenAPI 3 description of every route, made from the same schemas Fastify
 * validates and serialises with, so the document cannot drift from the code.
 */
import type { FastifyPluginAsync, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { packageVersion } from '../../lib/version.js'
import { apiSchemas } from '../schemas.js'

interface RouteSchema {
  tags?: string[]
  summary?: string
  params?: Record<string, unknown>
  querystring?: Record<string, unknown>
  body?: Record<string, unknown>
  consumes?: string[]
  response?: Record<string, unknown>
}

/** `{$ref: 'Project#'}` → `{$ref: '#/components/schemas/Project'}`, deeply. */
function toComponentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toComponentRefs)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string' && !inner.startsWith('#')) {
      out.$ref = `#/components/schemas/${inner.replace(/#.*$/, '')}`
    } else if (key !== '$id') {
      out[key] = toComponentRefs(inner)
    }
  }
  return out
}

function parametersOf(where: 'path' | 'query', schema: Record<string, unknown> | undefined) {
  const properties = (schema?.properties ?? {}) as Record<string, unknown>
  const required = new Set((schema?.required as string[] | undefined) ?? [])
  return Object.entries(properties).map(([name, inner]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: toComponentRefs(inner),
  }))
}

const openapiPlugin: FastifyPluginAsync = async (app) => {
  const routes: RouteOptions[] = []
  app.addHook('onRoute', (route) => {
    if (route.schema && !route.url.startsWith('/openapi')) routes.push(route)
  })

  let document: Record<string, unknown> | undefined
  const build = () => {
    const paths: Record<string, Record<string, unknown>> = {}
    for (const route of routes) {
      const schema = route.schema as RouteSchema
      const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter(
        (method) => method !== 'HEAD',
      )
      for (const method of methods) {
        const responses: Record<string, unknown> = {}
        for (const [status, body] of Object.entries(schema.response ?? {})) {
          const description = `HTTP ${status}`
          responses[status] =
            status === '204'
              ? { description }
              : { description, content: { 'application/json': { schema: toComponentRefs(body) } } }
        }
        responses.default = {
          description: 'Error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        }
        const operation: Record<string, unknown> = {
          tags: schema.tags ?? [],
          summary: schema.summary ?? '',
          parameters: [...parametersOf('path', schema.params), ...parametersOf('query', schema.querystring)],
          responses,
        }
        if (schema.body) {
          const contentType = schema.consumes?.[0] ?? 'application/json'
          operation.requestBody = {
            required: true,
            content: { [contentType]: { schema: toComponentRefs(schema.body) } },
          }
        } else if (schema.consumes) {
          operation.requestBody = {
            required: true,
            content: { [schema.consumes[0] ?? '*/*']: { schema: {} } },
          }
        }
        paths[path] = { ...paths[path], [method.toLowerCase()]: operation }
      }
    }
    const schemas: Record<string, unknown> = {}
    for (const schema of apiSchemas()) schemas[schema.$id] = toComponentRefs(schema)
    return {
      openapi: '3.0.3',
      info: { title: 'Docs hosting API', version: packageVersion },
      servers: [{ url: `http://${app.config.apiHost}` }],
      components: {
        schemas,
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
      paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    }
  }

  app.get('/openapi.json', { config: { rateLimit: false } }, async () => {
    document ??= build()
    return document
  })
}

export const openapiRoutes = fp(openapiPlugin, { name: 'openapi' })
