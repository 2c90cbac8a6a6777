/**
 * `{$ref: 'Name#'}` to a named schema: Fastify resolves it against the schemas added at start, the
 * types resolve it through `ApiReferences`, and /openapi.json turns it into a component reference.
 */
export const ref = <Schema extends { readonly $id: string }>(schema: Schema) =>
  ({ $ref: `${schema.$id}#` }) as { readonly $ref: `${Schema['$id']}#` }

/** Shapes every route shares: the `{error, issues}` body, the error answers, the path parameters. */

export const ErrorBody = {
  $id: 'Error',
  title: 'Error',
  description: 'Every API error: a message and, for bad input, the issues with their JSON paths.',
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: {
    error: { type: 'string' },
    issues: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
} as const

const errorRef = ref(ErrorBody)

/** The error answers every authenticated route can give, all `{error, issues}` bodies. */
export const errorResponses = { 400: errorRef, 401: errorRef, 403: errorRef, 404: errorRef } as const

/** Statuses beyond those, added by the routes that can answer them. */
export const conflictResponse = { 409: errorRef } as const
export const tooLargeResponse = { 413: errorRef } as const
export const tooManyResponse = { 429: errorRef } as const
export const outOfStorageResponse = { 507: errorRef } as const
/** The blob store (or the server, read-only on a full disk) cannot take writes now; retry later. */
export const storeFaultResponse = { 503: errorRef } as const
export const rateLimitedResponse = { 429: errorRef } as const

/** An instant, as an ISO 8601 string (`2026-01-31T12:00:00.000Z`). */
export const dateTime = { type: 'string', format: 'date-time' } as const

/** An id in a path (`:projectId`, `:keyId`, …): one rule for every route. */
export const pathId = { type: 'string', minLength: 1, maxLength: 100 } as const

/** `:projectId` in a path: one rule for every project route. */
export const projectIdParams = {
  type: 'object',
  required: ['projectId'],
  properties: { projectId: pathId },
} as const

/** `:slug` in a path: the deployment routes address a project by its slug. */
export const slugParams = {
  type: 'object',
  required: ['slug'],
  properties: { slug: { type: 'string', maxLength: 100 } },
} as const

/** `:slug/…/:id`: one deployment of a project. */
export const deploymentParams = {
  type: 'object',
  required: ['slug', 'id'],
  properties: { slug: { type: 'string', maxLength: 100 }, id: { type: 'string', maxLength: 100 } },
} as const

/** A 204 answer: no body. */
export const noContent = { type: 'null', description: 'No content' } as const
