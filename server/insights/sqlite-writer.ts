/**
 * On SQLite, reader events are written by a worker thread with its own connection to the database
 * file, not by the thread that serves readers. better-sqlite3 is synchronous: a flush of 100 events
 * held the serving thread about 5 ms ten times a second at 1,000 events/s, and that is where a reader's
 * p99 went (bench:insights, steady readers: 4–5 ms alone, 11–26 ms with events flushed on the serving
 * thread, 6 ms with no flush at all). WAL lets the serving thread read while the worker writes; the two
 * connections wait for each other's write lock (`busy_timeout`) like two replicas would.
 *
 * The worker (sqlite-writer-worker.ts) runs the same repository code (`insightsRepository.record`), so
 * the rows are the ones PostgreSQL gets from the serving thread, where writing is asynchronous anyway.
 * A worker that dies fails the batches it held (the batcher keeps them for the next flush) and is
 * started again by the next one.
 *
 * What the serving thread does for a flush is as little as it can be: the events go to the worker as
 * the one JSON text the batcher holds them as, and the worker sums them (`batchOf`). Cloning the events as objects (postMessage's
 * structured clone) cost the serving thread about 19 µs an event, a quarter of what an event cost it
 * (bench:insights, from a CPU profile). The worker also runs in Linux's `SCHED_IDLE` class: where it
 * shares a core with the serving thread, the kernel lets a reader's request run first
 * (sqlite-writer-worker.ts).
 */
import { Worker } from 'node:worker_threads'
import { fromPackageRoot } from '../../lib/package-root.js'
import type { InsightWriter } from './batcher.js'

/** A message to the worker (`events` is the JSON text of `AcceptedEvent[]`), and its answer. */
export interface WriteRequest {
  id: number
  events: string
}
export interface WriteAnswer {
  id: number
  error?: string
  /** The error's `code` (`SQLITE_CONSTRAINT_NOTNULL`), so the batcher can tell refused data from an outage. */
  code?: string
}

export class SqliteInsightWriter implements InsightWriter {
  #worker: Worker | undefined
  #next = 0
  readonly #pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>()

  /** `dataDir` holds `docs.sqlite`, which the server has already opened and migrated. */
  constructor(private readonly dataDir: string) {}

  write(events: string): Promise<void> {
    const worker = this.#start()
    const id = this.#next++
    return new Promise<void>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject })
      worker.postMessage({ id, events } satisfies WriteRequest)
    })
  }

  /** Ends the worker once what it holds is written (the batcher has flushed before this). */
  async close(): Promise<void> {
    const worker = this.#worker
    this.#worker = undefined
    if (worker) await worker.terminate()
  }

  #start(): Worker {
    if (this.#worker) return this.#worker
    // From the package root, not from this file: docs-server runs bundled (scripts/bundle.ts), the worker not.
    const worker = new Worker(fromPackageRoot('dist', 'server', 'insights', 'sqlite-writer-worker.js'), {
      workerData: { dataDir: this.dataDir },
    })
    // Idle between flushes: it never keeps the process alive on its own.
    worker.unref()
    worker.on('message', (answer: WriteAnswer) => {
      const waiting = this.#pending.get(answer.id)
      this.#pending.delete(answer.id)
      if (answer.error === undefined) waiting?.resolve()
      else waiting?.reject(Object.assign(new Error(answer.error), answer.code ? { code: answer.code } : {}))
    })
    const fail = (error: Error) => {
      if (this.#worker === worker) this.#worker = undefined
      for (const waiting of this.#pending.values()) waiting.reject(error)
      this.#pending.clear()
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`the reader-events writer thread exited (code ${code})`)))
    this.#worker = worker
    return worker
  }
}
