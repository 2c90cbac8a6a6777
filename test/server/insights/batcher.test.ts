import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  type AcceptedEvent,
  InsightBatcher,
  type InsightWriter,
  parseEvents,
} from '../../../server/insights/batcher.js'

const copy = (index: number): AcceptedEvent => ({
  projectId: 'prj_a',
  day: '2026-03-02',
  event: { type: 'copy', path: `page-${index}/` },
})

const paths = (events: readonly AcceptedEvent[] | undefined) =>
  events?.map((accepted) => (accepted.event as { path: string }).path)

/** A writer whose writes finish only when the test says so; each write's events, parsed. */
function heldWriter() {
  const writes: { events: AcceptedEvent[]; finish: (error?: Error) => void }[] = []
  const writer: InsightWriter = {
    write: (events) =>
      new Promise<void>((resolve, reject) => {
        writes.push({ events: parseEvents(events), finish: (error) => (error ? reject(error) : resolve()) })
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
  assert.equal(batcher.waiting, 900)
  writes[0]?.finish()
  await new Promise((resolve) => setImmediate(resolve))
  // The full batch that waited is written as soon as the first ends, whole and in order.
  assert.equal(writes.length, 2)
  assert.deepEqual(
    paths(writes[1]?.events),
    Array.from({ length: 900 }, (_, index) => `page-${index + 100}/`),
  )
  assert.equal(flushes, 2)
  writes[1]?.finish()
  await batcher.close()
  assert.equal(writes.length, 2)
})

test('events are written as they were added, whatever their characters and sizes', async () => {
  const { writer, writes } = heldWriter()
  const batcher = new InsightBatcher(writer, { flushMs: 60_000, maxBatch: 10_000, maxWaiting: 10_000 })
  // Past the buffer's first 16 KB, and characters of two, three and four UTF-8 bytes, quotes and escapes.
  const events: AcceptedEvent[] = Array.from({ length: 300 }, (_, index) => ({
    projectId: 'prj_a',
    day: '2026-03-02',
    event: {
      type: 'feedback',
      path: `guide/${index}/`,
      helpful: index % 2 === 0,
      comment: `é — 日本語 🙂 "quoted" \\ \n ${'x'.repeat(index)}`,
    },
    ...(index % 3 === 0 ? { visitor: `v${index}` } : {}),
  }))
  for (const event of events) batcher.add(event)
  const closed = batcher.close()
  writes[0]?.finish()
  await closed
  assert.deepEqual(writes[0]?.events, events)
  // Emptied: a later flush writes only what came after.
  batcher.add(copy(1))
  const flushed = batcher.flush()
  writes[1]?.finish()
  await flushed
  assert.deepEqual(paths(writes[1]?.events), ['page-1/'])
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
  assert.deepEqual(paths(writes[1]?.events), ['page-0/', 'page-1/', 'page-2/', 'page-3/'])
  writes[1]?.finish()
  await next
})

test('past maxWaiting, new events are dropped and counted, also when a refused batch comes back', async () => {
  const { writer, writes } = heldWriter()
  const batcher = new InsightBatcher(writer, { flushMs: 60_000, maxBatch: 3, maxWaiting: 4 })
  for (let index = 0; index < 3; index++) batcher.add(copy(index))
  // The first three are being written; four more wait, and the fifth is one too many.
  for (let index = 3; index < 8; index++) batcher.add(copy(index))
  assert.equal(batcher.waiting, 4)
  assert.equal(batcher.dropped, 1)
  writes[0]?.finish(new Error('database unreachable'))
  await new Promise((resolve) => setImmediate(resolve))
  // Back before the four that came since: seven, so the newest three go.
  assert.equal(batcher.waiting, 4)
  assert.equal(batcher.dropped, 4)
  const next = batcher.flush()
  assert.deepEqual(paths(writes[1]?.events), ['page-0/', 'page-1/', 'page-2/', 'page-3/'])
  writes[1]?.finish()
  await next
})
