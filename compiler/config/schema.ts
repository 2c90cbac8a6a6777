/** The docs.json schema, loaded once per process: what editors see is what the validator checks. */
import { readFileSync } from 'node:fs'
import { Ajv, type ValidateFunction } from 'ajv'
import { fromPackageRoot } from '../assets.js'

export type SchemaNode = Record<string, unknown>

let published: SchemaNode | undefined
let validator: ValidateFunction | undefined

export function docsSchema(): SchemaNode {
  published ??= JSON.parse(readFileSync(fromPackageRoot('schemas', 'docs.schema.json'), 'utf8')) as SchemaNode
  return published
}

export function docsValidator(): ValidateFunction {
  if (validator) return validator
  const schema = docsSchema()
  // The schema is ours and checked by tests, so skip meta-validation and code optimisation: both
  // cost compile time on every `docsctl validate` and buy nothing for a schema this size.
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: false,
    validateSchema: false,
    code: { optimize: false },
  })
  validator = ajv.compile(schema)
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
