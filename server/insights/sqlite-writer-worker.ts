/**
 * The thread that writes reader events on SQLite (sqlite-writer.ts): one connection to the server's
 * database file, opened as the server opens it, and for each flush it is sent, one at a time and in
 * order, the batch summed here (`batchOf`) and written by the repository's own `record`.
 *
 * It lowers its own scheduling priority first (niceness 10, lib/threads.ts), so that on a core
 * it shares with the serving thread a reader's request runs before a batch is written. Not the lowest
 * (19): there the kernel gives the writer about 1.5% of a core the serving thread keeps busy, less than
 * 1,000 events a second take, and a backlog would grow until events were dropped; at 10 it gets about
 * 10%.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { lowerThreadPriority } from '../../lib/threads.js'
import { openDatabase } from '../db/index.js'
import { insightsRepository } from '../db/repositories/insights.js'
import { type AcceptedEvent, batchOf } from './batcher.js'
import type { WriteAnswer, WriteRequest } from './sqlite-writer.js'

lowerThreadPriority()
const { dataDir } = workerData as { dataDir: string }
const { db } = openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: undefined })
const insights = insightsRepository(db)

let queue = Promise.resolve()
parentPort?.on('message', (request: WriteRequest) => {
  queue = queue.then(async () => {
    let answer: WriteAnswer
    try {
      await insights.record(batchOf(JSON.parse(request.events) as AcceptedEvent[]))
      answer = { id: request.id }
    } catch (error) {
      answer = { id: request.id, error: error instanceof Error ? error.message : String(error) }
    }
    parentPort?.postMessage(answer)
  })
})
