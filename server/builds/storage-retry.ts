/**
 * A build's reads and writes of storage (the database, the blob store) through an outage: a transient
 * fault (refused, reset, timed out, a 5xx of S3, a dropped PostgreSQL connection) is tried again with
 * backoff for as long as the build may run. When its time runs out first, the call ends in
 * `StorageOutage`, and the pipeline puts the job back in the queue rather than failing the deployment,
 * so nobody has to push again because a bucket restarted.
 */
import { type Dependency, unavailableDependency } from '../errors.js'

/** Waits `ms`, or rejects with the signal's reason when it aborts first; tests pass one that never waits. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>

export const sleepFor: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const abort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort)
      resolve()
    }, ms)
    signal.addEventListener('abort', abort, { once: true })
  })

/** Storage stayed away for longer than the build could wait: the job goes back to the queue. */
export class StorageOutage extends Error {
  constructor(
    readonly dependency: Dependency,
    override readonly cause: unknown,
  ) {
    super(`the ${dependency} was unreachable for longer than the build could wait`)
  }
}

/** What a build's storage calls share: how to wait, until when, and the outage they are in, if any. */
export interface StorageRetry {
  sleep: Sleep
  /** Aborts when the build must stop (its time ran out, its lease ended): the retries stop with it. */
  signal: AbortSignal
  /** Set while a call waits to try again, cleared when one gets through: what stopped the build. */
  outage: { current: StorageOutage | undefined }
  onRetry?: (fault: StorageOutage, delayMs: number) => void
}

/** First wait after a transient fault; doubled each time, up to `maxDelayMs`. */
export const firstDelayMs = 500
export const maxDelayMs = 8000

/** Run `call`; while it fails for a transient storage fault, wait (backing off) and try again. */
export async function withStorageRetry<T>(call: () => Promise<T>, retry: StorageRetry): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let fault: StorageOutage
    try {
      const result = await call()
      if (attempt > 1) retry.outage.current = undefined
      return result
    } catch (error) {
      const dependency = unavailableDependency(error)
      if (!dependency) throw error
      fault = new StorageOutage(dependency, error)
    }
    retry.outage.current = fault
    if (retry.signal.aborted) throw fault
    const delayMs = Math.min(maxDelayMs, firstDelayMs * 2 ** (attempt - 1))
    retry.onRetry?.(fault, delayMs)
    await retry.sleep(delayMs, retry.signal).catch(() => {
      throw fault
    })
  }
}
