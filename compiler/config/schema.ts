/**
 * The docs.json schema, loaded once per process: what editors see is what the validator checks. The
 * validator is compiled from it once, at `npm run build` (schemas/compile-validator.ts writes ajv's
 * standalone code to dist/schemas/docs-validator.cjs, stamped with the schema's SHA-256): compiling it
 * at run time cost every `docsctl validate`, `push` and build thread about 100 ms of CPU. Where that file
 * is missing or was compiled from another schema, the validator is compiled here as before.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Ajv, type Options, type ValidateFunction } from 'ajv'
import { fromPackageRoot } from '../assets.js'

export type SchemaNode = Record<string, unknown>

/** Where `npm run build` writes the compiled validator. */
export const compiledValidatorPath = fromPackageRoot('dist', 'schemas', 'docs-validator.cjs')

/**
 * The schema is ours and checked by tests, so skip meta-validation and code optimisation: both cost
 * compile time and buy nothing for a schema this size.
 */
export const validatorOptions: Options = {
  allErrors: true,
  verbose: true,
  strict: false,
  validateSchema: false,
  code: { optimize: false },
}

let schemaText: string | undefined
let published: SchemaNode | undefined
let validator: ValidateFunction | undefined

const readSchemaText = (): string =>
  (schemaText ??= readFileSync(fromPackageRoot('schemas', 'docs.schema.json'), 'utf8'))

export function docsSchema(): SchemaNode {
  published ??= JSON.parse(readSchemaText()) as SchemaNode
  return published
}

/** The SHA-256 of the schema file, which a compiled validator must carry to be used. */
export const docsSchemaSha256 = (): string => createHash('sha256').update(readSchemaText()).digest('hex')

/** The validator `npm run build` compiled (at `path`) from this very schema, or undefined. */
export function compiledValidator(path = compiledValidatorPath): ValidateFunction | undefined {
  let compiled: ValidateFunction & { schemaSha256?: unknown }
  try {
    compiled = createRequire(import.meta.url)(path) as typeof compiled
  } catch {
    return undefined
  }
  return compiled.schemaSha256 === docsSchemaSha256() ? compiled : undefined
}

export function docsValidator(): ValidateFunction {
  validator ??= compiledValidator() ?? new Ajv(validatorOptions).compile(docsSchema())
  return validator
}

/** The schema node at a JSON pointer like `#/definitions/group`. */
export function schemaAt(pointer: string): SchemaNode | undefined {
  let node: unknown = docsSchema()
  for (const segment of pointer.replace(/^#\/?/, '').split('/')) {
    if (segment === '') continue
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return node !== null && typeof node === 'object' ? (node as SchemaNode) : undefined
}

/** Follows `$ref`s to the node that holds the keywords. */
export function dereference(node: SchemaNode | undefined): SchemaNode | undefined {
  let current = node
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 10; hops++) {
    current = schemaAt(current.$ref)
  }
  return current
}
