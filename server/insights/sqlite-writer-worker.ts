/**
 * The thread that writes reader events on SQLite (sqlite-writer.ts): one connection to the server's
 * database file, opened as the server opens it, and for each flush it is sent, one at a time and in
 * order, the batch summed here (`batchOf`) and written by the repository's own `record`.
 *
 * It first puts itself in Linux's `SCHED_IDLE` class (lib/threads.ts, `idleThreadPolicy`), so it
 * writes only while no other thread wants its core and yields the moment a reader's request comes. It
 * also lowers its niceness to 10, which is what counts where there is no `chrt`. At niceness 10 or 19
 * it still delayed readers on a core it shared with the serving thread: in bench:insights (steady
 * readers, medians of three rounds), readers' p99 with events was 1.45–2.13 ms at niceness 10, 0.83–0.89
 * ms in `SCHED_IDLE`, and 0.78–0.86 ms when the writer wrote nothing (docs/guides/insights.mdx, Load).
 * The price: on a machine whose every core the serving threads keep busy, the writer waits until one is
 * free, and the batcher holds the events meanwhile (up to its `maxWaiting`, past which it drops and
 * counts them). A Node process serves from one thread, so that takes a one-core machine or other work
 * on every core.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { idleThreadPolicy, lowerThreadPriority } from '../../lib/threads.js'
import { openDatabase } from '../db/index.js'
import { insightsRepository } from '../db/repositories/insights.js'
import { batchOf, parseEvents } from './batcher.js'
import type { WriteAnswer, WriteRequest } from './sqlite-writer.js'

lowerThreadPriority()
idleThreadPolicy()
const { dataDir } = workerData as { dataDir: string }
const { db } = openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: undefined })
const insights = insightsRepository(db)

let queue = Promise.resolve()
parentPort?.on('message', (request: WriteRequest) => {
  queue = queue.then(async () => {
    let answer: WriteAnswer
    try {
      await insights.record(batchOf(parseEvents(request.events)))
      answer = { id: request.id }
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code
      answer = {
        id: request.id,
        error: error instanceof Error ? error.message : String(error),
        ...(typeof code === 'string' ? { code } : {}),
      }
    }
    parentPort?.postMessage(answer)
  })
})
