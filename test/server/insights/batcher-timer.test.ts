/** The batcher's own timer, on mocked timers: a write the database is slow to refuse is not joined by a flush each tick. */
import assert from 'node:assert/strict'
import { mock, test } from 'node:test'
import { type AcceptedEvent, InsightBatcher, parseEvents } from '../../../server/insights/batcher.js'

const copy = (index: number): AcceptedEvent => ({
  projectId: 'prj_a',
  day: '2026-03-02',
  event: { type: 'copy', path: `page-${index}/` },
})

test('while a write is under way, the timer starts no flush; after a refusal it tries once a tick', async (t) => {
  mock.timers.enable({ apis: ['setInterval'] })
  t.after(() => mock.timers.reset())
  const writes: { events: AcceptedEvent[]; finish: (error?: Error) => void }[] = []
  const batcher = new InsightBatcher(
    {
      write: (events) =>
        new Promise<void>((resolve, reject) => {
          writes.push({ events: parseEvents(events), finish: (error) => (error ? reject(error) : resolve()) })
        }),
    },
    { flushMs: 1000, maxBatch: 100, maxWaiting: 10_000 },
  )
  batcher.onError = () => {}
  batcher.start()
  batcher.add(copy(0))
  mock.timers.tick(1000)
  assert.equal(writes.length, 1)
  // The database takes five seconds to refuse (a connection timeout): five ticks, no flush joins in.
  for (let tick = 0; tick < 5; tick++) mock.timers.tick(1000)
  writes[0]?.finish(new Error('timeout exceeded when trying to connect'))
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(writes.length, 1, 'no flush waited behind the refused write to try again at once')
  mock.timers.tick(1000)
  assert.equal(writes.length, 2)
  writes[1]?.finish()
  await batcher.close()
  assert.equal(batcher.waiting, 0)
})
