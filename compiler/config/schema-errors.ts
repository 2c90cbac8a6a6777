/**
 * Translates ajv's errors into one problem per mistake, in the author's words: what was found, what
 * was expected, and a likely fix. Union keywords (`anyOf`) never reach the author: the branch whose
 * type matches the value speaks, or a single "expected X or Y" when none does.
 */
import type { ErrorObject } from 'ajv'
import { distance } from 'fastest-levenshtein'
import type { JsonPath } from './json-source.js'
import { IGNORED_CONTEXTUAL_OPTIONS, ignoredPlatformKey } from './platform-keys.js'
import { describe } from './refs.js'
import { dereference, type SchemaNode } from './schema.js'
import { slugify } from './slug.js'

export interface SchemaProblem {
  /** The value the problem is about; for unknown keys, the key itself. */
  path: JsonPath
  /** Where the problem shows: the object holding a key for unknown keys, else `path`. */
  displayPath: JsonPath
  at: 'key' | 'value'
  rule: string
  message: string
  /** Wording for lenient mode, where the value is dropped instead of rejected. */
  lenientMessage?: string
  /** For an unknown key: the known key it most likely meant. */
  suggestion?: string
}

/** Keys of the hosted platform's theming that this service replaces with its one built-in theme. */
export const UNSUPPORTED_KEYS = ['theme', 'colors', 'fonts', 'icons', 'background', 'styling'] as const

export function didYouMean(found: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    const d = distance(found.toLowerCase(), candidate.toLowerCase())
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  const tolerance = Math.max(2, Math.floor(found.length / 3))
  return best !== undefined && bestDistance <= tolerance ? best : undefined
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

const typeMatches = (schemaType: string, value: unknown): boolean => {
  const actual = jsonTypeOf(value)
  return schemaType === actual || (schemaType === 'number' && actual === 'integer')
}

const typeWords: Record<string, string> = {
  string: 'a string',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  number: 'a number',
  integer: 'a whole number',
  null: 'null',
}

const quoteList = (values: readonly unknown[]): string =>
  values.map((value) => JSON.stringify(value)).join(', ')

/** The type(s) a schema branch accepts, following `$ref` and reading `enum`. */
function branchTypes(branch: SchemaNode): string[] {
  const node = dereference(branch) ?? branch
  if (typeof node.type === 'string') return [node.type]
  if (Array.isArray(node.type)) return node.type as string[]
  if (Array.isArray(node.enum)) return [...new Set(node.enum.map(jsonTypeOf))]
  return []
}

function toPath(instancePath: string, data: unknown): JsonPath {
  const path: JsonPath = []
  let node = data
  for (const raw of instancePath.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(node)) {
      const index = Number(segment)
      path.push(index)
      node = node[index]
    } else {
      path.push(segment)
      node =
        node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined
    }
  }
  return path
}

export function valueAt(data: unknown, path: JsonPath): unknown {
  let node = data
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string | number, unknown>)[segment]
  }
  return node
}

export function translateSchemaErrors(errors: readonly ErrorObject[], data: unknown): SchemaProblem[] {
  const dropped = new Set<ErrorObject>()
  const problems: SchemaProblem[] = []

  for (const union of errors) {
    if (union.keyword !== 'anyOf' && union.keyword !== 'oneOf') continue
    dropped.add(union)
    const branches = (Array.isArray(union.schema) ? union.schema : []) as SchemaNode[]
    const path = toPath(union.instancePath, data)
    const value = valueAt(data, path)
    const samePlace = errors.filter((error) => error !== union && error.instancePath === union.instancePath)
    const inBranch = (error: ErrorObject, index: number) =>
      error.schemaPath.startsWith(`${union.schemaPath}/${index}/`)

    // `anyOf: [{required: [a]}, {required: [b]}]`: "at least one of these keys".
    if (branches.length > 0 && branches.every((branch) => Object.keys(branch).join() === 'required')) {
      const keys = branches.flatMap((branch) => branch.required as string[])
      for (const error of samePlace) if (error.keyword === 'required') dropped.add(error)
      problems.push({
        path,
        displayPath: path,
        at: 'value',
        rule: 'missing-key',
        message: `expected at least one of ${quoteList(keys)}, found none`,
      })
      continue
    }

    const types = branches.map(branchTypes)
    const matching = types.findIndex((accepted) => accepted.some((type) => typeMatches(type, value)))
    if (matching >= 0) {
      // The value has the type of one branch: the others' complaints about it do not apply.
      for (const error of samePlace) {
        const mismatchedType = error.keyword === 'type' && !typeMatches(String(error.params.type), value)
        const otherBranch = types.some(
          (accepted, index) =>
            index !== matching && inBranch(error, index) && !accepted.includes(jsonTypeOf(value)),
        )
        if (mismatchedType || otherBranch) dropped.add(error)
      }
      continue
    }
    for (const error of samePlace)
      if (error.keyword === 'type' || error.keyword === 'enum') dropped.add(error)
    const expected = [...new Set(types.flat())].map((type) => typeWords[type] ?? type)
    const enums = branches.flatMap((branch) => {
      const node = dereference(branch) ?? branch
      return Array.isArray(node.enum) ? node.enum : []
    })
    // Groups nested in `pages` are the hosted platform's; legacy.ts speaks about those.
    const isPageEntry = branches.some((branch) => branch.$ref === '#/definitions/pageSlug')
    const expectedWords = isPageEntry
      ? 'a page slug (a string)'
      : enums.length > 0 && enums.length <= 20 && expected.length === 1
        ? `one of ${quoteList(enums)}`
        : expected.join(' or ')
    problems.push({
      path,
      displayPath: path,
      at: 'value',
      rule: 'invalid-type',
      message: `expected ${expectedWords}, found ${describe(value)}`,
    })
  }

  for (const error of errors) {
    if (dropped.has(error) || error.keyword === 'if') continue
    const path = toPath(error.instancePath, data)
    const value = valueAt(data, path)
    const parent = error.parentSchema as SchemaNode | undefined
    switch (error.keyword) {
      case 'additionalProperties': {
        const key = String(error.params.additionalProperty)
        const keyPath = [...path, key]
        if (path.length === 0 && (UNSUPPORTED_KEYS as readonly string[]).includes(key)) {
          problems.push({
            path: keyPath,
            displayPath: path,
            at: 'key',
            rule: 'unsupported-key',
            message: `"${key}" is not supported here: sites use the one built-in theme, which has no such setting; remove it (\`docsctl migrate\` does)`,
            lenientMessage: `"${key}" is not supported here: sites use the built-in theme; ignored`,
          })
          break
        }
        const ignored = ignoredPlatformKey(keyPath)
        if (ignored) {
          const message = `"${key}" is a setting of the hosted platform (${ignored}) not implemented here; ignored`
          problems.push({
            path: keyPath,
            displayPath: path,
            at: 'key',
            rule: 'ignored-key',
            message,
            lenientMessage: message,
          })
          break
        }
        const known = Object.keys((parent?.properties as SchemaNode | undefined) ?? {})
        const suggestion = didYouMean(key, known)
        const hint = suggestion
          ? `did you mean "${suggestion}"?`
          : known.length > 0
            ? `expected one of ${quoteList(known)}`
            : 'remove it'
        problems.push({
          path: keyPath,
          displayPath: path,
          at: 'key',
          rule: 'unknown-key',
          message: `unknown key "${key}"; ${hint}`,
          ...(suggestion !== undefined && { suggestion }),
          lenientMessage: `unknown key "${key}" ignored${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
        })
        break
      }
      case 'required':
        problems.push({
          path,
          displayPath: path,
          at: 'value',
          rule: 'missing-key',
          message: `missing required key "${String(error.params.missingProperty)}"`,
        })
        break
      case 'type':
        problems.push({
          path,
          displayPath: path,
          at: 'value',
          rule: 'invalid-type',
          message: `expected ${typeWords[String(error.params.type)] ?? String(error.params.type)}, found ${describe(value)}`,
        })
        break
      case 'enum': {
        const ignored = typeof value === 'string' ? IGNORED_CONTEXTUAL_OPTIONS[value] : undefined
        if (ignored && path[0] === 'contextual') {
          const message = `"${String(value)}" is an option of the hosted platform (${ignored}) not implemented here; ignored`
          problems.push({
            path,
            displayPath: path,
            at: 'value',
            rule: 'ignored-key',
            message,
            lenientMessage: message,
          })
          break
        }
        const allowed = (error.params.allowedValues ?? []) as unknown[]
        const suggestion =
          typeof value === 'string'
            ? didYouMean(
                value,
                allowed.filter((v) => typeof v === 'string'),
              )
            : undefined
        problems.push({
          path,
          displayPath: path,
          at: 'value',
          rule: 'invalid-value',
          message: `expected one of ${quoteList(allowed)}, found ${describe(value)}${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
        })
        break
      }
      case 'minLength':
        problems.push({
          path,
          displayPath: path,
          at: 'value',
          rule: 'invalid-value',
          message: 'expected a non-empty string, found ""',
        })
        break
      case 'pattern':
        problems.push({
          path,
          displayPath: path,
          at: 'value',
          rule: 'invalid-value',
          message: patternMessage(path, value),
        })
        break
      default:
        problems.push({
          path,
          displayPath: path,
          at: 'value',
          rule: 'invalid-value',
          message: `${error.message ?? 'invalid value'}, found ${describe(value)}`,
        })
    }
  }

  const seen = new Set<string>()
  return problems.filter((problem) => {
    const key = `${JSON.stringify(problem.path)} ${problem.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function patternMessage(path: JsonPath, value: unknown): string {
  if (path.length === 1 && path[0] === 'slug') {
    const suggestion = typeof value === 'string' ? slugify(value) : ''
    const fix = suggestion.length >= 3 && suggestion !== value ? `; try "${suggestion}"` : ''
    return `expected a slug of 3-63 characters a-z, 0-9 and "-", not starting or ending with "-", found ${describe(value)}${fix}`
  }
  if (path.includes('include')) return `expected an operation like "GET /users", found ${describe(value)}`
  return `unexpected format, found ${describe(value)}`
}
