/**
 * The docs.json schema, loaded once per process: what editors see is what the validator checks. The
 * validator is the one `npm run build` compiled from it (compiler/compiled-validators.ts), or compiled
 * here when that is missing or stale.
 */
import { readFileSync } from 'node:fs'
import { Ajv, type Options, type ValidateFunction } from 'ajv'
import { fromPackageRoot } from '../assets.js'
import { compiledFrom, compiledValidatorsPath, sha256Hex } from '../compiled-validators.js'

export type SchemaNode = Record<string, unknown>

/** Where `npm run build` writes the compiled validator. */
export const compiledValidatorPath = compiledValidatorsPath('docs-validator')

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
export const docsSchemaSha256 = (): string => sha256Hex(readSchemaText())

/** The validator `npm run build` compiled (at `path`) from this very schema, or undefined. */
export const compiledValidator = (path = compiledValidatorPath): ValidateFunction | undefined =>
  compiledFrom<ValidateFunction>(path, readSchemaText())

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
