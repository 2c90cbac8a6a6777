/** Build threads run at the lowest CPU priority, and only they (PERFORMANCE.md: build-thread priority). */
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { getPriority } from 'node:os'
import { test } from 'node:test'
import { Worker } from 'node:worker_threads'

test('loading the build worker lowers its own thread to nice 19 and leaves the request thread as it was', {
  skip:
    process.platform !== 'linux' &&
    "per-thread nice values are Linux's; elsewhere setPriority(19) lowers the whole process",
}, async () => {
  const before = getPriority()
  const module = new URL('../../../server/builds/worker.js', import.meta.url).href
  const thread = new Worker(
    `import(${JSON.stringify(module)}).then(() =>
        require('node:worker_threads').parentPort.postMessage(require('node:os').getPriority()))`,
    { eval: true },
  )
  try {
    const [priority] = await once(thread, 'message')
    assert.equal(priority, 19, 'the build thread')
    assert.equal(getPriority(), before, 'the request thread')
  } finally {
    await thread.terminate()
  }
})
