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

/** Lets the promise callbacks of a finished write run. */
const settle = () => new Promise((resolve) => setImmediate(resolve))

test('while a batch is written, events past it wait, then go a batch at a time, in order', async () => {
  const { writer, writes } = heldWriter()
  const batcher = new InsightBatcher(writer, { flushMs: 60_000, maxBatch: 100, maxWaiting: 10_000 })
  for (let index = 0; index < 1000; index++) batcher.add(copy(index))
  // 900 events arrived during the first write: none started a write of its own.
  assert.equal(writes.length, 1)
  assert.equal(writes[0]?.events.length, 100)
  assert.equal(batcher.waiting, 1000)
  // Each full batch that waited is written as soon as the one before ends, never more than 100 at once.
  for (let index = 0; index < 10; index++) {
    assert.equal(writes.length, index + 1)
    assert.deepEqual(
      paths(writes[index]?.events),
      Array.from({ length: 100 }, (_, event) => `page-${index * 100 + event}/`),
    )
    writes[index]?.finish()
    await settle()
  }
  assert.equal(batcher.waiting, 0)
  await batcher.close()
  assert.equal(writes.length, 10)
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

test('a batch the database refuses stays first, is not retried at once, and the next flush writes it and what came since', async () => {
  const { writer, writes } = heldWriter()
  const errors: unknown[] = []
  const batcher = new InsightBatcher(writer, { flushMs: 60_000, maxBatch: 2, maxWaiting: 10_000 })
  batcher.onError = (error) => errors.push(error)
  for (let index = 0; index < 4; index++) batcher.add(copy(index))
  writes[0]?.finish(new Error('database unreachable'))
  await settle()
  assert.equal(errors.length, 1)
  // A full batch arriving after the failure starts no write either: the timer's flush tries again.
  batcher.add(copy(4))
  batcher.add(copy(5))
  assert.equal(writes.length, 1)
  assert.equal(batcher.waiting, 6)
  const next = batcher.flush()
  for (const [index, expected] of [
    ['page-0/', 'page-1/'],
    ['page-2/', 'page-3/'],
    ['page-4/', 'page-5/'],
  ].entries()) {
    await settle()
    assert.deepEqual(paths(writes[index + 1]?.events), expected)
    writes[index + 1]?.finish()
  }
  await next
  assert.equal(writes.length, 4)
  assert.equal(batcher.waiting, 0)
})

test('past maxWaiting, new events are dropped and counted (a batch being written counts); a refused batch loses nothing', async () => {
  const { writer, writes } = heldWriter()
  const batcher = new InsightBatcher(writer, { flushMs: 60_000, maxBatch: 3, maxWaiting: 4 })
  // The first three are being written; one more fits, and the four after it are too many.
  for (let index = 0; index < 8; index++) batcher.add(copy(index))
  assert.equal(batcher.waiting, 4)
  assert.equal(batcher.dropped, 4)
  writes[0]?.finish(new Error('database unreachable'))
  await settle()
  assert.equal(batcher.waiting, 4)
  batcher.add(copy(8))
  assert.equal(batcher.dropped, 5)
  const next = batcher.flush()
  await settle()
  assert.deepEqual(paths(writes[1]?.events), ['page-0/', 'page-1/', 'page-2/'])
  writes[1]?.finish()
  await settle()
  assert.deepEqual(paths(writes[2]?.events), ['page-3/'])
  writes[2]?.finish()
  await next
  assert.equal(batcher.waiting, 0)
  assert.equal(batcher.dropped, 5)
})

test('through refusals, flushes and a buffer that grows and moves while a batch is written, every event is written once, in order', async () => {
  const { writer, writes } = heldWriter()
  const errors: unknown[] = []
  const batcher = new InsightBatcher(writer, { flushMs: 60_000, maxBatch: 7, maxWaiting: 10_000 })
  batcher.onError = (error) => errors.push(error)
  const added: AcceptedEvent[] = []
  const written: AcceptedEvent[] = []
  let finished = 0
  /** Ends the writes started so far: every fifth refused, the rest written. */
  const finishAll = async () => {
    while (finished < writes.length) {
      const write = writes[finished]
      finished += 1
      const refused = finished % 5 === 0
      if (!refused) written.push(...(write?.events ?? []))
      write?.finish(refused ? new Error('database unreachable') : undefined)
      await settle()
    }
  }
  for (let index = 0; index < 600; index++) {
    // Comments from none to 1,500 characters, so the 16 KB buffer grows, and moves what waits to its front.
    const event: AcceptedEvent = {
      projectId: 'prj_a',
      day: '2026-03-02',
      event: {
        type: 'feedback',
        path: `p${index}/`,
        helpful: true,
        comment: 'ü'.repeat((index * 379) % 1500),
      },
    }
    added.push(event)
    batcher.add(event)
    if (index % 11 === 0) await finishAll()
    if (index % 97 === 0) {
      const flushed = batcher.flush()
      await finishAll()
      await flushed
    }
  }
  // What is left, through refusals: each flush ends at one.
  while (batcher.waiting > 0) {
    const flushed = batcher.close()
    await finishAll()
    await flushed
  }
  assert.ok(errors.length > 10)
  assert.equal(batcher.dropped, 0)
  assert.ok(writes.every((write) => write.events.length <= 7))
  assert.deepEqual(written, added)
})

test('flushes that waited behind a refused write write the rest in full batches, not a short one each', async () => {
  const { writer, writes } = heldWriter()
  const batcher = new InsightBatcher(writer, { flushMs: 60_000, maxBatch: 10, maxWaiting: 10_000 })
  batcher.onError = () => {}
  for (let index = 0; index < 5; index++) batcher.add(copy(index))
  const first = batcher.flush()
  for (let index = 5; index < 100; index++) batcher.add(copy(index))
  // Reports asking for the counts while the database is slow to refuse.
  let pending = 3
  const piled = Promise.all(
    [batcher.flush(), batcher.flush(), batcher.flush()].map((flushed) => flushed.then(() => pending--)),
  )
  writes[0]?.finish(new Error('database unreachable'))
  await first
  // The database is back; readers keep sending events while what waited is written.
  let next = 100
  for (let index = 1; pending > 0; index++) {
    await settle()
    writes[index]?.finish()
    for (let more = 0; more < 3; more++) batcher.add(copy(next++))
  }
  await piled
  await settle()
  // The five refused, again, then full batches only: what waited, and what came since as it filled a
  // batch. No flush that waited cut the events arriving meanwhile into short writes.
  const sizes = writes.map((write) => write.events.length)
  assert.deepEqual(sizes.slice(0, 2), [5, 5])
  assert.ok(
    sizes.length >= 12 && sizes.slice(2).every((size) => size === 10),
    `writes of ${sizes.join(', ')}`,
  )
  assert.deepEqual(
    writes.slice(1).flatMap((write) => paths(write.events)),
    Array.from({ length: 5 + (sizes.length - 2) * 10 }, (_, index) => `page-${index}/`),
  )
})

test('a writer that throws before it returns a promise is a refusal: reported, and the batch kept', async () => {
  const written: AcceptedEvent[][] = []
  let throws = true
  const errors: unknown[] = []
  const batcher = new InsightBatcher(
    {
      write: (events) => {
        if (throws) throw new Error('could not build the statements')
        written.push(parseEvents(events))
        return Promise.resolve()
      },
    },
    { flushMs: 60_000, maxBatch: 10, maxWaiting: 10_000 },
  )
  batcher.onError = (error) => errors.push(error)
  batcher.add(copy(0))
  await batcher.flush()
  assert.equal(errors.length, 1)
  assert.equal(batcher.waiting, 1)
  throws = false
  await batcher.flush()
  assert.deepEqual(paths(written[0]), ['page-0/'])
})

/** A database that refuses any batch holding a `poison/` event, as PostgreSQL refuses a foreign key. */
function refusingWriter(away: () => boolean = () => false) {
  const written: AcceptedEvent[] = []
  const tries: number[] = []
  const writer: InsightWriter = {
    write: async (text) => {
      const events = parseEvents(text)
      tries.push(events.length)
      if (away()) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
      if (paths(events)?.includes('poison/'))
        throw Object.assign(new Error('violates foreign key constraint'), { code: '23503' })
      written.push(...events)
    },
  }
  return { writer, written, tries }
}

const poison = (): AcceptedEvent => ({
  projectId: 'prj_a',
  day: '2026-03-02',
  event: { type: 'copy', path: 'poison/' },
})

test('a batch the database refuses for what it holds is written apart: the rest kept, in order, the refused events dropped', async () => {
  const { writer, written, tries } = refusingWriter()
  const errors: unknown[] = []
  const batcher = new InsightBatcher(writer, { flushMs: 60_000, maxBatch: 10, maxWaiting: 10_000 })
  batcher.onError = (error) => errors.push(error)
  for (let index = 0; index < 10; index++) batcher.add(index === 3 || index === 8 ? poison() : copy(index))
  batcher.add(copy(10))
  await batcher.flush()
  assert.deepEqual(paths(written), [
    'page-0/',
    'page-1/',
    'page-2/',
    'page-4/',
    'page-5/',
    'page-6/',
    'page-7/',
    'page-9/',
    'page-10/',
  ])
  assert.equal(batcher.dropped, 2)
  assert.equal(batcher.waiting, 0)
  // The whole, its halves, and on down to the two events: never a write of what was already kept.
  assert.ok(tries.length < 15, `${tries.length} writes`)
  // Each refusal reported: the whole, then each of the two events on its own.
  assert.ok(errors.length >= 3 && errors.every((error) => (error as { code?: string }).code === '23503'))
})

test('should the database go away while a refused batch is written apart, the rest of it is dropped, not written twice', async () => {
  let writes = 0
  const { writer, written } = refusingWriter(() => writes++ >= 2)
  const batcher = new InsightBatcher(writer, { flushMs: 60_000, maxBatch: 8, maxWaiting: 10_000 })
  batcher.onError = () => {}
  for (let index = 0; index < 8; index++) batcher.add(index === 6 ? poison() : copy(index))
  await batcher.flush()
  // Refused whole, its first half written, then the database is away: the second half is dropped.
  assert.deepEqual(paths(written), ['page-0/', 'page-1/', 'page-2/', 'page-3/'])
  assert.equal(batcher.dropped, 4)
  assert.equal(batcher.waiting, 0)
})
