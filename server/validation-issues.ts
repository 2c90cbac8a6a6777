/**
 * A request that fails its JSON schema, as the API's `issues`: each one names the field and says what
 * to fix in words (`must not be empty`), never the schema's own text (`must match pattern "\S"`).
 */
import type { Issue } from './errors.js'

/** One failure of schema validation, as Fastify passes it on (ajv's error object). */
export interface SchemaFailure {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  message?: string
}

const characters = (count: number) => `${count} character${count === 1 ? '' : 's'}`

/** What to fix, for the schema keywords the API's schemas use; ajv's wording for any other. */
export function issueMessage(item: SchemaFailure): string {
  const params = item.params
  switch (item.keyword) {
    case 'required':
      return 'is required'
    case 'additionalProperties':
      return 'unknown property'
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${characters(Number(params.limit))}`
    case 'maxLength':
      return `must be at most ${characters(Number(params.limit))}`
    case 'pattern':
      return patternMessage(String(params.pattern))
    case 'type':
      return `must be ${/^[aeiou]/.test(String(params.type)) ? 'an' : 'a'} ${String(params.type)}`
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`
    default:
      return item.message ?? 'invalid'
  }
}

/** What a pattern of the API's schemas asks for, in words; the pattern itself for one without. */
function patternMessage(pattern: string): string {
  if (pattern === '\\S') return 'must not be blank'
  // schemas/api/insights.ts: a page path as a site's script sends it, and free text.
  if (pattern.startsWith('^(?!/)'))
    return 'must be a path within the site: no leading slash, spaces, ?, # or control characters'
  if (pattern.includes('\\u0000')) return 'must not contain control characters'
  return `must match ${pattern}`
}

/**
 * The issues of a failed validation of the request's `context` (body, querystring, params, headers):
 * one per field, the first the schema found (an empty name is "empty", not also "blank").
 */
export function validationIssues(items: readonly SchemaFailure[], context: string): Issue[] {
  const issues = new Map<string, Issue>()
  for (const item of items) {
    const missing = item.keyword === 'required' ? `/${String(item.params.missingProperty)}` : ''
    const extra = item.keyword === 'additionalProperties' ? `/${String(item.params.additionalProperty)}` : ''
    const path = `${context}${item.instancePath}${missing}${extra}`
    if (!issues.has(path)) issues.set(path, { path, message: issueMessage(item) })
  }
  return [...issues.values()]
}
