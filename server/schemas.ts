/**
 * How routes use the shapes in schemas/api: each route plugin is an `ApiRoutes`, so Fastify's type
 * provider types `request.body`, `params`, `query` and the reply from the route's own schemas.
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts'
import type { FastifyPluginOptions } from 'fastify'
import type { ApiReferences } from '../schemas/api/index.js'

export type ApiRoutes<Options extends FastifyPluginOptions = Record<never, never>> =
  FastifyPluginAsyncJsonSchemaToTs<{
    Options: Options
    ValidatorSchemaOptions: { references: ApiReferences }
    SerializerSchemaOptions: { references: ApiReferences }
  }>
