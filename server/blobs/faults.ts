/**
 * What went wrong in a blob store, in words an API caller may read: the error's code (`EIO`, `EROFS`)
 * or the bucket's answer (`S3 answered HTTP 500 (InternalError)`), never a path or a message that could
 * carry the server's layout or credentials. The whole error goes to the log.
 */
import { S3ServiceException } from '@aws-sdk/client-s3'

export function describeStoreFault(error: unknown): string {
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode
    return `S3 answered ${status === undefined ? 'without a status' : `HTTP ${status}`} (${error.name})`
  }
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown }
  if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code))
    return typeof syscall === 'string' && /^\w{1,20}$/.test(syscall) ? `${code} on ${syscall}` : code
  if (error instanceof Error && error.name !== 'Error' && /^\w{1,60}$/.test(error.name)) return error.name
  return 'an unexpected error'
}
