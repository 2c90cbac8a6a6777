/**
 * A reader event as the site script sends it (schemas/api/insights.ts `InsightEvent`): parsed from at
 * most `maxEventBytes` of JSON, checked against its type's schema, and worded as the API's issues.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import type { FromSchema } from 'json-schema-to-ts'
import { InsightEvent } from '../../schemas/api/insights.js'
import type { Issue } from '../errors.js'
import { validationIssues } from '../validation-issues.js'

export type ReaderEvent = FromSchema<typeof InsightEvent>

/** Bytes one event may have: a page path, a query or a bounded comment fit with room to spare. */
export const maxEventBytes = 2048

const ajv = new Ajv({ allErrors: true, strict: false })
/** One validator per event type, so a wrong event gets the issues of its own type, not of every branch. */
const validators = new Map<string, ValidateFunction>()
for (const branch of InsightEvent.oneOf) {
  const validate = ajv.compile(branch)
  const type = branch.properties.type
  for (const name of 'const' in type ? [type.const] : type.enum) validators.set(name, validate)
}

export type ParsedEvent = { event: ReaderEvent } | { error: string; issues?: Issue[] }

export function parseReaderEvent(body: Buffer): ParsedEvent {
  let value: unknown
  try {
    value = JSON.parse(body.toString('utf8'))
  } catch {
    return { error: 'The event is not JSON' }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: 'The event must be a JSON object' }
  const type = (value as { type?: unknown }).type
  const validate = typeof type === 'string' ? validators.get(type) : undefined
  if (!validate) {
    const known = [...validators.keys()].join(', ')
    return {
      error: 'Unknown event type',
      issues: [{ path: '/type', message: `must be one of ${known}` }],
    }
  }
  if (!validate(value)) {
    const issues = validationIssues(validate.errors ?? [], 'body')
    return { error: 'Invalid event', issues }
  }
  return { event: value as ReaderEvent }
}
