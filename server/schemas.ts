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

// OpenAPI metadata that routes declare next to their schemas (read by routes/openapi.ts).
declare module 'fastify' {
  interface FastifySchema {
    tags?: string[]
    summary?: string
    consumes?: string[]
  }
}
