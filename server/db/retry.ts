/**
 * Database outages: which errors mean "the database is away" (not "this query is wrong"), and a retry
 * with exponential backoff for writes that must land once it is back (a finished build's record).
 */

/** Connection-level failures: refused, reset, terminated by the server, or the server shutting down. */
const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  '57P01', // admin_shutdown (pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08006',
])

export function isDatabaseUnavailable(error: unknown): boolean {
  // The AWS SDK marks its errors with `$metadata`: a refused S3 bucket is not the database.
  if (typeof error === 'object' && error !== null && '$metadata' in error) return false
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && unavailableCodes.has(code)) return true
  const message = error instanceof Error ? error.message : ''
  return /Connection terminated|connection timeout|Client was closed|driver has already been destroyed/i.test(
    message,
  )
}

/**
 * True when the database refused the data itself, which no retry will change: PostgreSQL's data
 * exceptions and integrity constraint violations (SQLSTATE classes 22 and 23), SQLite's constraints,
 * too big values and type mismatches.
 */
export function isRefusedData(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return false
  return (
    /^2[23][0-9A-Z]{3}$/.test(code) ||
    code.startsWith('SQLITE_CONSTRAINT') ||
    code === 'SQLITE_TOOBIG' ||
    code === 'SQLITE_MISMATCH'
  )
}

/**
 * Run `operation`, retrying while the database is unavailable: waits `baseMs`, then twice as long each
 * time, `attempts` tries in all. Other errors are thrown at once.
 */
export async function retryWithBackoff<T>(
  operation: () => Promise<T>,
  { attempts = 6, baseMs = 250 }: { attempts?: number; baseMs?: number } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation()
    } catch (error) {
      if (attempt >= attempts || !isDatabaseUnavailable(error)) throw error
      await new Promise((resolve) => setTimeout(resolve, baseMs * 2 ** (attempt - 1)))
    }
  }
}
