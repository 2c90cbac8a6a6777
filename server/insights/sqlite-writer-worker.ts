/**
 * The thread that writes reader events on SQLite (sqlite-writer.ts): one connection to the server's
 * database file, opened as the server opens it, and the repository's own `record` for each batch it is
 * sent, one at a time, in order.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { openDatabase } from '../db/index.js'
import { insightsRepository } from '../db/repositories/insights.js'
import type { WriteAnswer, WriteRequest } from './sqlite-writer.js'

const { dataDir } = workerData as { dataDir: string }
const { db } = openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: undefined })
const insights = insightsRepository(db)

let queue = Promise.resolve()
parentPort?.on('message', (request: WriteRequest) => {
  queue = queue.then(async () => {
    let answer: WriteAnswer
    try {
      await insights.record(request.batch)
      answer = { id: request.id }
    } catch (error) {
      answer = { id: request.id, error: error instanceof Error ? error.message : String(error) }
    }
    parentPort?.postMessage(answer)
  })
})
