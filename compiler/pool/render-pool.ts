/**
 * Renders pages across worker threads, one highlighter and one frozen processor per worker, sized
 * to the cores. Used for cold builds of large sites; small jobs stay in-process (see build.ts).
 */
import { Worker } from 'node:worker_threads'
import type { ValidationMode } from '../config/types.js'
import type { SourceFiles } from '../files.js'
import type { RenderOutcome, RenderTask, ResultMessage, TaskMessage, WorkerInit } from './protocol.js'
import { packFiles } from './shared-files.js'

export async function renderInPool(
  tasks: readonly RenderTask[],
  options: { files: SourceFiles; pageSlugs: ReadonlySet<string>; mode: ValidationMode; workers: number },
): Promise<RenderOutcome[]> {
  const { buffer, layout } = packFiles(options.files)
  const init: WorkerInit = { buffer, layout, pageSlugs: [...options.pageSlugs], mode: options.mode }
  const size = Math.max(1, Math.min(options.workers, tasks.length))
  const outcomes: RenderOutcome[] = new Array(tasks.length)
  let next = 0
  const workers: Worker[] = []
  try {
    await Promise.all(
      Array.from({ length: size }, async () => {
        const worker = new Worker(new URL('./render-worker.js', import.meta.url), { workerData: init })
        workers.push(worker)
        await new Promise<void>((resolve, reject) => {
          const send = () => {
            if (next >= tasks.length) return resolve()
            const id = next++
            const message: TaskMessage = { id, task: tasks[id]! }
            worker.postMessage(message)
          }
          worker.on('message', (result: ResultMessage) => {
            outcomes[result.id] = result.outcome
            send()
          })
          worker.once('error', reject)
          worker.once('exit', (code) => {
            if (next < tasks.length || code !== 0) reject(new Error(`render worker exited with code ${code}`))
          })
          send()
        })
      }),
    )
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()))
  }
  return outcomes
}
