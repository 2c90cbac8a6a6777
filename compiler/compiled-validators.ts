/**
 * JSON Schema validators compiled once, at `npm run build` (scripts/compile-validator.ts writes ajv's
 * standalone code to dist/schemas/), stamped with the SHA-256 of the schema they came from. Compiling
 * them at run time cost every `docsctl validate`, `push` and build thread about 100 ms of CPU (docs.json)
 * and 60 ms (front matter). A module missing, or compiled from another schema, is not used: the caller
 * compiles the schema itself, as before.
 */
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { fromPackageRoot } from './assets.js'

/** Where `npm run build` writes the validators of one schema (`docs-validator`, `frontmatter-validators`). */
export const compiledValidatorsPath = (name: string): string =>
  fromPackageRoot('dist', 'schemas', `${name}.cjs`)

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex')

/** The module compiled at `path` from the schema whose text is `schemaText`, or undefined. */
export function compiledFrom<T extends object>(path: string, schemaText: string): T | undefined {
  let compiled: T & { schemaSha256?: unknown }
  try {
    compiled = createRequire(import.meta.url)(path) as typeof compiled
  } catch {
    return undefined
  }
  return compiled.schemaSha256 === sha256Hex(schemaText) ? compiled : undefined
}
