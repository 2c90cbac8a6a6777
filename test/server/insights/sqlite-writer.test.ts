import assert from 'node:assert/strict'
import { test } from 'node:test'
import { batchOf } from '../../../server/insights/batcher.js'
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
  await writer.record(batchOf([view, view, { ...view, visitor: 'v1' }]))
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
  // No such project: the foreign key refuses the batch, and nothing of it is written.
  await assert.rejects(
    writer.record(batchOf([view(project.id), view('prj_gone')])),
    /FOREIGN KEY constraint failed/,
  )
  assert.equal(await app.repos.insights.countEvents(project.id), 0)
  await writer.record(batchOf([view(project.id)]))
  await writer.close()
  await writer.record(batchOf([view(project.id)]))
  assert.equal(await app.repos.insights.countEvents(project.id), 2)
})
