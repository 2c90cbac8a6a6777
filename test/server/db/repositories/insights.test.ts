/**
 * Reader insights in the database (migration 015), on both sqlEngines: replicas flushing the same
 * project and day at once add up exactly (visitors counted once across replicas; on SQLite, two of
 * them through the server's writer threads); the day's salt is shared and rotates; a prune deletes
 * old raw events and keeps the daily counts.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { migrateToLatest, openDatabase } from '../../../../server/db/index.js'
import { createRepositories } from '../../../../server/db/repositories/index.js'
import { type AcceptedEvent, InsightBatcher, repositoryWriter } from '../../../../server/insights/batcher.js'
import { DailySalt } from '../../../../server/insights/daily-salt.js'
import { SqliteInsightWriter } from '../../../../server/insights/sqlite-writer.js'
import { sqlEngines, testConfig } from '../../helper.js'
import { ownerWithProject } from '../helper.js'

const day = '2026-03-02'
const range = (projectId: string) => ({ projectId, from: '2026-03-01', to: '2026-03-03' })

for (const engine of sqlEngines) {
  describe(`reader insights (${engine})`, () => {
    test('replicas flushing at once add up exactly, and one project never counts for another', async (t) => {
      const config = await testConfig(t, engine)
      // PostgreSQL: three pools, as three replicas have; SQLite is one process, one connection.
      const replicas = [0, 1, 2].map((index) => {
        if (engine === 'sqlite' && index > 0) return undefined
        const { db, schema } = openDatabase(config)
        t.after(() => db.destroy())
        return { db, schema, repos: createRepositories(db) }
      })
      const first = replicas[0]!
      await migrateToLatest(first.db, first.schema)
      const { project } = await ownerWithProject(first.repos, 'ada@example.com', 'acme', 'Acme')
      const { project: other } = await ownerWithProject(first.repos, 'bo@example.com', 'other', 'Other')
      // SQLite: the first writes on this thread, the others through the server's writer threads, each
      // with a connection of its own to the same file, so three writers meet at its lock.
      const writers = [0, 1, 2].map((index) => {
        const replica = replicas[index]
        if (replica) return repositoryWriter(replica.repos.insights)
        const writer = new SqliteInsightWriter(config.dataDir)
        t.after(() => writer.close())
        return writer
      })
      const batchers = writers.map(
        (writer) => new InsightBatcher(writer, { flushMs: 1000, maxBatch: 10_000, maxWaiting: 10_000 }),
      )
      const view = (projectId: string, path: string, visitor: string): AcceptedEvent => ({
        projectId,
        day,
        event: { type: 'view', path, screen: 'desktop' },
        visitor,
      })
      for (let round = 0; round < 3; round++) {
        for (const [index, batcher] of batchers.entries()) {
          for (let n = 0; n < 100; n++)
            batcher.add(view(project.id, n % 2 ? 'guide/' : '', `visitor-${n % 25}`))
          batcher.add(view(other.id, '', `visitor-of-other-${index}`))
          batcher.add({ projectId: project.id, day, event: { type: 'search', query: 'K8s', results: 0 } })
        }
        await Promise.all(batchers.map((batcher) => batcher.flush()))
      }
      const repos = first.repos
      assert.deepEqual(await repos.insights.top(range(project.id), 'view', 10), [
        { key: '', total: 450 },
        { key: 'guide/', total: 450 },
      ])
      assert.deepEqual(await repos.insights.perDay(range(project.id), 'visitors'), [{ day, total: 25 }])
      assert.deepEqual(await repos.insights.top(range(project.id), 'search-none', 10), [
        { key: 'k8s', total: 9 },
      ])
      assert.deepEqual(await repos.insights.perDay(range(other.id), 'view'), [{ day, total: 9 }])
      assert.deepEqual(await repos.insights.perDay(range(other.id), 'visitors'), [{ day, total: 3 }])
      assert.equal(await repos.insights.countEvents(project.id), 909)

      // A prune past the keep deletes raw events; the daily counts stay.
      await repos.insights.prune('2026-03-03', '2026-03-03')
      assert.equal(await repos.insights.countEvents(project.id), 0)
      assert.deepEqual(await repos.insights.perDay(range(project.id), 'view'), [{ day, total: 900 }])
      assert.deepEqual(await repos.insights.perDay(range(project.id), 'visitors'), [{ day, total: 25 }])
    })

    test('events of a project deleted while they waited are dropped with it; the rest of their batch is written', async (t) => {
      const config = await testConfig(t, engine)
      const { db, schema } = openDatabase(config)
      t.after(() => db.destroy())
      await migrateToLatest(db, schema)
      const repos = createRepositories(db)
      const { project } = await ownerWithProject(repos, 'ada@example.com', 'acme', 'Acme')
      const { project: gone } = await ownerWithProject(repos, 'bo@example.com', 'gone', 'Gone')
      const batcher = new InsightBatcher(repositoryWriter(repos.insights), {
        flushMs: 60_000,
        maxBatch: 1000,
        maxWaiting: 10_000,
      })
      const errors: unknown[] = []
      batcher.onError = (error) => errors.push(error)
      for (const projectId of [project.id, gone.id, project.id]) {
        batcher.add({ projectId, day, event: { type: 'view', path: '', screen: 'phone' }, visitor: 'v1' })
        batcher.add({ projectId, day, event: { type: 'feedback', path: '', helpful: false, comment: 'Hm' } })
      }
      // Deleted between the events' answer and the flush: their rows would break the foreign key.
      assert.ok(await repos.projects.delete(gone.id))
      await batcher.flush()
      assert.deepEqual(errors, [])
      assert.equal(batcher.waiting, 0)
      assert.deepEqual(await repos.insights.perDay(range(project.id), 'view'), [{ day, total: 2 }])
      assert.deepEqual(await repos.insights.perDay(range(project.id), 'visitors'), [{ day, total: 1 }])
      assert.equal((await repos.insights.comments(range(project.id), 10)).length, 2)
      assert.equal(await repos.insights.countEvents(project.id), 4)
      assert.equal(await repos.insights.countEvents(gone.id), 0)
    })

    test("the day's salt is shared, rotates daily, and the day before yesterday's is deleted", async (t) => {
      const config = await testConfig(t, engine)
      const { db, schema } = openDatabase(config)
      t.after(() => db.destroy())
      await migrateToLatest(db, schema)
      const repos = createRepositories(db)
      const [a, b] = [new DailySalt(repos), new DailySalt(repos)]
      const reader = ['prj_1', '203.0.113.7', 'Firefox'] as const
      const today = await a.visitor('2026-03-02', ...reader)
      assert.equal(await b.visitor('2026-03-02', ...reader), today, 'every replica hashes a reader alike')
      assert.notEqual(await a.visitor('2026-03-02', 'prj_2', reader[1], reader[2]), today, 'per project')
      assert.notEqual(await a.visitor('2026-03-03', ...reader), today, 'not recognised the next day')
      assert.ok(await repos.sharedSecrets.find('insights-salt-2026-03-02'), "yesterday's salt is kept")
      await a.salt('2026-03-04')
      assert.equal(await repos.sharedSecrets.find('insights-salt-2026-03-02'), undefined)
      assert.doesNotMatch(today, /203\.0\.113\.7|Firefox/)
    })
  })
}
