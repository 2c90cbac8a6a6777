/** A thread's CPU clock: it counts work a thread does, not the time it waits, whatever else runs. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Worker } from 'node:worker_threads'
import { threadCpuMs } from '../../../compiler/pool/thread-cpu.js'
import { currentThreadId } from '../../../lib/threads.js'
import { startCpuHog } from '../../cpu-hog.js'

const linux = process.platform === 'linux'

/** A thread that names its id, then spins for `spinMs` of its own CPU time and sleeps for `sleepMs`. */
async function measure(spinMs: number, sleepMs: number): Promise<number> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads')
     const { readlinkSync } = require('node:fs')
     parentPort.postMessage(Number(readlinkSync('/proc/thread-self').split('/').at(-1)))
     parentPort.once('message', () => {
       const start = process.cpuUsage()
       // process.cpuUsage counts every thread; this one spins while the test thread waits.
       while ((process.cpuUsage(start).user + process.cpuUsage(start).system) / 1000 < workerData.spinMs) {}
       // Then stays alive until terminated: a thread that ended has no clock left to read.
       setTimeout(() => parentPort.postMessage('done'), workerData.sleepMs)
       parentPort.on('message', () => {})
     })`,
    { eval: true, workerData: { spinMs, sleepMs } },
  )
  const tid = await new Promise<number>((resolve) => worker.once('message', resolve))
  // A new thread finishes starting Node after its first message: let it settle before counting.
  await new Promise((resolve) => setTimeout(resolve, 300))
  const before = threadCpuMs(tid)!
  worker.postMessage('go')
  await new Promise((resolve) => worker.once('message', resolve))
  const used = threadCpuMs(tid)! - before
  await worker.terminate()
  return used
}

test('a thread names its own kernel id', { skip: !linux && 'Linux only' }, () => {
  assert.ok(currentThreadId() > 0)
  assert.ok((threadCpuMs(currentThreadId()) ?? -1) >= 0)
  assert.equal(threadCpuMs(2 ** 30), undefined, 'a thread that does not exist has no clock')
})

test('a thread that waits uses no CPU time, and one that spins is counted, under a CPU hog too', {
  skip: !linux && 'Linux only',
}, async (t) => {
  const waited = await measure(0, 300)
  assert.ok(waited < 100, `waiting is not work: counted ${waited} ms`)
  const hog = await startCpuHog()
  t.after(() => hog.stop())
  // Under the hog the process's CPU (which the spin loop reads) grows faster than the thread's own, so
  // the thread's share is at most the spin and well above nothing.
  const spun = await measure(400, 0)
  assert.ok(spun > 50 && spun <= 450, `counted ${spun} ms`)
})
