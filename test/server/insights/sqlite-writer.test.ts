import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { test } from 'node:test'
import { InsightBatcher } from '../../../server/insights/batcher.js'
import { SqliteInsightWriter } from '../../../server/insights/sqlite-writer.js'
import { createProject, signIn, testApp } from '../helper.js'

const day = '2026-03-02'

test('on SQLite a thread of its own writes reader events; the serving connection reads them', async (t) => {
  const app = await testApp(t, 'sqlite')
  const project = await createProject(app, await signIn(app), 'acme')
  const writer = new SqliteInsightWriter(app.config.dataDir)
  t.after(() => writer.close())
  const view = {
    projectId: project.id,
    day,
    event: { type: 'view', path: 'guide/', screen: 'phone' },
  } as const
  await writer.write(JSON.stringify([view, view, { ...view, visitor: 'v1' }]))
  const range = { projectId: project.id, from: day, to: day }
  assert.deepEqual(await app.repos.insights.top(range, 'view', 10), [{ key: 'guide/', total: 3 }])
  assert.deepEqual(await app.repos.insights.perDay(range, 'visitors'), [{ day, total: 1 }])
})

test('a batch the database refuses fails alone, whole; the thread goes on, and starts again after close', async (t) => {
  const app = await testApp(t, 'sqlite')
  const project = await createProject(app, await signIn(app), 'acme')
  const writer = new SqliteInsightWriter(app.config.dataDir)
  t.after(() => writer.close())
  const view = (projectId: string) =>
    ({ projectId, day, event: { type: 'view', path: '', screen: 'desktop' } }) as const
  // A day of null, which no event the batcher holds has: the database refuses the batch, and nothing of
  // it is written, the valid event before it included.
  await assert.rejects(
    writer.write(JSON.stringify([view(project.id), { ...view(project.id), day: null }])),
    /NOT NULL constraint failed: insight_events\.day/,
  )
  assert.equal(await app.repos.insights.countEvents(project.id), 0)
  await writer.write(JSON.stringify([view(project.id)]))
  // The error keeps its code across the thread: a batcher tells refused data from an outage by it.
  const batcher = new InsightBatcher(writer, { flushMs: 60_000, maxBatch: 10, maxWaiting: 100 })
  batcher.onError = () => {}
  batcher.add(view(project.id))
  batcher.add({ ...view(project.id), day: null as unknown as string })
  batcher.add(view(project.id))
  await batcher.flush()
  assert.equal(batcher.dropped, 1)
  assert.equal(await app.repos.insights.countEvents(project.id), 3)
  await writer.close()
  await writer.write(JSON.stringify([view(project.id)]))
  assert.equal(await app.repos.insights.countEvents(project.id), 4)
})

/** Each thread of this process: its niceness and scheduling policy (5 is `SCHED_IDLE`), from /proc. */
function threadScheduling(): Map<number, { niceness: number; policy: number }> {
  const threads = new Map<number, { niceness: number; policy: number }>()
  for (const id of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    threads.set(Number(id), { niceness: Number(fields[16]), policy: Number(fields[38]) })
  }
  return threads
}

const schedIdle = 5
const hasChrt = spawnSync('chrt', ['--help'], { stdio: 'ignore' }).status === 0

test('the writer thread runs at a lower priority, in SCHED_IDLE where chrt is; the serving thread keeps its own', {
  skip: process.platform !== 'linux',
}, async (t) => {
  const app = await testApp(t, 'sqlite')
  const project = await createProject(app, await signIn(app), 'acme')
  const before = threadScheduling()
  const writer = new SqliteInsightWriter(app.config.dataDir)
  t.after(() => writer.close())
  await writer.write(JSON.stringify([{ projectId: project.id, day, event: { type: 'copy', path: '' } }]))
  const started = [...threadScheduling()].filter(([id]) => !before.has(id)).map(([, thread]) => thread)
  assert.ok(
    started.some(({ niceness, policy }) => niceness === 10 && (!hasChrt || policy === schedIdle)),
    `no new thread at niceness 10${hasChrt ? ' in SCHED_IDLE' : ''}: ${JSON.stringify(started)}`,
  )
  assert.deepEqual(threadScheduling().get(process.pid), before.get(process.pid))
  assert.equal(await app.repos.insights.countEvents(project.id), 1)
})
