/**
 * What went wrong in a blob store, in words an API caller may read: the error's code (`EIO`, `EROFS`)
 * or the bucket's answer (`S3 answered HTTP 500 (InternalError)`), never a path or a message that could
 * carry the server's layout or credentials. The whole error goes to the log. And which of its faults
 * are an outage that passes (the bucket unreachable, timing out or answering 5xx), worth trying again.
 */

/** What an answer of the bucket carries (the AWS SDK's ServiceException). */
interface ServiceAnswer extends Error {
  $fault: 'client' | 'server'
  $metadata: { httpStatusCode?: number }
}

/**
 * An error the bucket answered with, told by the shape the AWS SDK's own `ServiceException.isInstance`
 * checks (`$fault` and `$metadata`), so that this module, which every server imports, does not load the
 * S3 client: a server on its local folder never does.
 */
function isServiceAnswer(error: unknown): error is ServiceAnswer {
  if (!(error instanceof Error)) return false
  const { $fault, $metadata } = error as Partial<ServiceAnswer>
  return ($fault === 'client' || $fault === 'server') && typeof $metadata === 'object' && $metadata !== null
}

export function describeStoreFault(error: unknown): string {
  if (isServiceAnswer(error)) {
    const status = error.$metadata.httpStatusCode
    return `S3 answered ${status === undefined ? 'without a status' : `HTTP ${status}`} (${error.name})`
  }
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown }
  if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code))
    return typeof syscall === 'string' && /^\w{1,20}$/.test(syscall) ? `${code} on ${syscall}` : code
  if (error instanceof Error && error.name !== 'Error' && /^\w{1,60}$/.test(error.name)) return error.name
  return 'an unexpected error'
}

/** Network failures of a request to the bucket: the AWS SDK marks every error of its own with `$metadata`. */
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND'])

/**
 * An S3 bucket that is away for now: refused, reset or timed out, throttled (429, SlowDown) or a 5xx.
 * Never a refusal that would answer the same again (403, 404, a bad request).
 */
export function isBlobStoreUnavailable(error: unknown): boolean {
  if (isServiceAnswer(error)) {
    const status = error.$metadata.httpStatusCode ?? 0
    return status >= 500 || status === 429 || error.name === 'SlowDown'
  }
  if (typeof error !== 'object' || error === null || !('$metadata' in error)) return false
  const { code, name } = error as { code?: unknown; name?: unknown }
  return (
    (typeof code === 'string' && networkCodes.has(code)) ||
    name === 'TimeoutError' ||
    name === 'RequestTimeout' ||
    (error instanceof Error && /socket hang up/i.test(error.message))
  )
}
