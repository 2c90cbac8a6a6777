/**
 * A synthetic CPU hog: one busy thread per core, so tests can build the same input on an idle and on
 * a saturated machine and compare (ARCHITECTURE decision 11: limits count work, never wall time).
 */
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'

export interface CpuHog {
  stop(): Promise<void>
}

export async function startCpuHog(threads = availableParallelism()): Promise<CpuHog> {
  const workers = Array.from(
    { length: threads },
    () =>
      new Worker(
        "require('node:worker_threads').parentPort.postMessage('busy'); for (;;) Math.sqrt(Math.random())",
        { eval: true },
      ),
  )
  // Every thread spins before the test goes on.
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))))
  return {
    async stop() {
      await Promise.all(workers.map((worker) => worker.terminate()))
    },
  }
}
