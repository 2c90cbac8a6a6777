import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type AcceptedEvent, InsightBatcher, type InsightWriter } from '../../../server/insights/batcher.js'

const copy = (index: number): AcceptedEvent => ({
  projectId: 'prj_a',
  day: '2026-03-02',
  event: { type: 'copy', path: `page-${index}/` },
})

/** A writer whose writes finish only when the test says so. */
function heldWriter() {
  const writes: { events: readonly AcceptedEvent[]; finish: (error?: Error) => void }[] = []
  const writer: InsightWriter = {
    write: (events) =>
      new Promise<void>((resolve, reject) => {
        writes.push({ events, finish: (error) => (error ? reject(error) : resolve()) })
      }),
  }
  return { writer, writes }
}

test('while a batch is written, events past a full batch wait for it instead of each starting a flush', async () => {
  const { writer, writes } = heldWriter()
  const batcher = new InsightBatcher(writer, { flushMs: 60_000, maxBatch: 100, maxWaiting: 10_000 })
  let flushes = 0
  const flush = batcher.flush.bind(batcher)
  batcher.flush = () => {
    flushes += 1
    return flush()
  }
  for (let index = 0; index < 1000; index++) batcher.add(copy(index))
  assert.equal(writes.length, 1)
  assert.equal(writes[0]?.events.length, 100)
  // 900 events arrived during the write: one flush had started, not one for each of them.
  assert.equal(flushes, 1)
  writes[0]?.finish()
  await new Promise((resolve) => setImmediate(resolve))
  // The full batch that waited is written as soon as the first ends, whole.
  assert.equal(writes.length, 2)
  assert.equal(writes[1]?.events.length, 900)
  assert.equal(flushes, 2)
  writes[1]?.finish()
  await batcher.close()
  assert.equal(writes.length, 2)
})

test('a write the database refuses keeps its events for the next flush, in order, and is not retried at once', async () => {
  const { writer, writes } = heldWriter()
  const errors: unknown[] = []
  const batcher = new InsightBatcher(writer, { flushMs: 60_000, maxBatch: 2, maxWaiting: 10_000 })
  batcher.onError = (error) => errors.push(error)
  batcher.add(copy(0))
  batcher.add(copy(1))
  batcher.add(copy(2))
  batcher.add(copy(3))
  writes[0]?.finish(new Error('database unreachable'))
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(errors.length, 1)
  assert.equal(writes.length, 1)
  const next = batcher.flush()
  assert.deepEqual(
    writes[1]?.events.map((accepted) => (accepted.event as { path: string }).path),
    ['page-0/', 'page-1/', 'page-2/', 'page-3/'],
  )
  writes[1]?.finish()
  await next
})
