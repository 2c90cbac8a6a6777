/**
 * The REST shapes live in `schemas/api/*.json` (one JSON Schema each, `$id` = its name). They are
 * added to Fastify once, referenced by routes as `{$ref: 'Name#'}`, and copied into openapi.json.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { fromPackageRoot } from '../compiler/assets.js'

export interface NamedSchema {
  $id: string
  [key: string]: unknown
}

let loaded: NamedSchema[] | undefined

export function apiSchemas(): NamedSchema[] {
  if (loaded) return loaded
  const folder = fromPackageRoot('schemas', 'api')
  loaded = readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(`${folder}/${name}`, 'utf8')) as NamedSchema)
  return loaded
}

/** `:projectId` in a path: one rule for every project route. */
export const projectIdParams = {
  type: 'object',
  required: ['projectId'],
  properties: { projectId: { type: 'string', minLength: 1, maxLength: 100 } },
} as const

/** The error answers every authenticated route can give, all `{error, issues}` bodies. */
export const errorResponses = {
  400: { $ref: 'Error#' },
  401: { $ref: 'Error#' },
  403: { $ref: 'Error#' },
  404: { $ref: 'Error#' },
} as const

// OpenAPI metadata that routes declare next to their schemas (read by routes/openapi.ts).
declare module 'fastify' {
  interface FastifySchema {
    tags?: string[]
    summary?: string
    consumes?: string[]
  }
}
