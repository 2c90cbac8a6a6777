/** A render worker: receives the site once, then renders pages on request with its own highlighter. */
import { parentPort, workerData } from 'node:worker_threads'
import type { ResultMessage, TaskMessage, WorkerInit } from './protocol.js'
import { renderOne } from './render-one.js'
import { unpackFiles } from './shared-files.js'

const init = workerData as WorkerInit
const files = unpackFiles(init.buffer, init.layout)
const pageSlugs = new Set(init.pageSlugs)

parentPort?.on('message', async (message: TaskMessage) => {
  const outcome = await renderOne(message.task, files, pageSlugs, init.mode)
  const result: ResultMessage = { id: message.id, outcome }
  parentPort?.postMessage(result)
})
