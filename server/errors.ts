/**
 * The one error shape of the API: `{error, issues?}`. Route code throws ApiError; the error handler in
 * app.ts turns it, schema validation failures and anything unexpected into that shape.
 */
import { describeStoreFault, isBlobStoreUnavailable } from './blobs/faults.js'
import { isDatabaseUnavailable } from './db/retry.js'

export interface Issue {
  path: string
  message: string
}

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly issues?: Issue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
}

export const badRequest = (message: string, issues?: Issue[]): ApiError => new ApiError(400, message, issues)
export const unauthorized = (message = 'Sign in: missing, unknown or expired token'): ApiError =>
  new ApiError(401, message, undefined, { 'www-authenticate': 'Bearer' })
export const forbidden = (message: string): ApiError => new ApiError(403, message)
export const notFound = (message = 'Not found'): ApiError => new ApiError(404, message)
export const conflict = (message: string, issues?: Issue[]): ApiError => new ApiError(409, message, issues)
export const tooLarge = (message: string, issues?: Issue[]): ApiError => new ApiError(413, message, issues)
export const tooMany = (message: string, issues?: Issue[]): ApiError => new ApiError(429, message, issues)
/** Out of disk: the connection is closed, since the rest of the request body was never read. */
export const outOfStorage = (): ApiError =>
  new ApiError(
    507,
    'The server is out of storage space; nothing of this request was kept, try again later',
    undefined,
    {
      connection: 'close',
    },
  )

/**
 * A full disk or quota, wherever it struck: a write of ours (ENOSPC, EDQUOT), SQLite's database file
 * (SQLITE_FULL) or PostgreSQL's (disk_full, 53100).
 */
export const isOutOfSpace = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === '53100'
}

/**
 * The blob store failed at `action` ("store the upload"): a fault of ours, not of the request. The
 * connection is closed, since the rest of the request body was never read.
 */
export const storeFault = (action: string, described: string): ApiError =>
  new ApiError(
    503,
    `The blob store could not ${action}: ${described}; nothing of this request was kept, try again later`,
    undefined,
    { connection: 'close', 'retry-after': '5' },
  )

/** A service the server needs that can be away for a while: what an outage answer names. */
export type Dependency = 'database' | 'blob store'

/** Which dependency an error says is away for now (refused, reset, timed out, 5xx), if any. */
export function unavailableDependency(error: unknown): Dependency | undefined {
  if (isBlobStoreUnavailable(error)) return 'blob store'
  if (isDatabaseUnavailable(error)) return 'database'
  return undefined
}

/** Seconds a client should wait before asking again during an outage. */
export const outageRetryAfterSeconds = 5

/**
 * The words of an outage answer (API and sites alike): which dependency is away and, for the blob
 * store, its fault in words a caller may read (describeStoreFault: no paths, no credentials).
 */
export function outageMessage(dependency: Dependency, error: unknown): string {
  return dependency === 'database'
    ? 'The database is unreachable; retry shortly'
    : `The blob store is unreachable (${describeStoreFault(error)}); retry shortly`
}
