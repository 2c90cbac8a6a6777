/**
 * The shared build queue in the database, on both sqlEngines: fair turns between owners and projects,
 * one build per project at a time with the newest waiting push winning, leases that run out and are
 * taken again before anything queued, and a build recorded only by the holder of the current lease.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { migrateToLatest, openDatabase } from '../../../server/db/index.js'
import type { BuildLease } from '../../../server/db/repositories/build-jobs.js'
import { createRepositories, type Repositories } from '../../../server/db/repositories/index.js'
import { ownerWithProject } from '../db/helper.js'
import { sqlEngines, testConfig } from '../helper.js'

async function queueHarness(t: Parameters<typeof testConfig>[0], engine: (typeof sqlEngines)[number]) {
  const { db, schema } = openDatabase(await testConfig(t, engine))
  t.after(() => db.destroy())
  await migrateToLatest(db, schema)
  const repos = createRepositories(db)
  const projects = new Map<string, { id: string; ownerId: string }>()
  /** A finalized push of `slug` (owned by `email`): its deployment and whether it was claimed. */
  const push = async (email: string, slug: string) => {
    let project = projects.get(slug)
    if (!project) {
      const made = await ownerWithProject(repos, email, slug, slug)
      project = { id: made.project.id, ownerId: made.owner.id }
      projects.set(slug, project)
    }
    const { deployment } = await repos.deployments.create({
      projectId: project.id,
      branch: 'main',
      commitMessage: slug,
      environment: null,
      files: [],
      blobExists: async () => true,
    })
    const queued = await repos.buildJobs.enqueue({
      deployment,
      ownerId: project.ownerId,
      promote: true,
      uploadMs: 1,
    })
    return { deployment, ...queued }
  }
  const take = (leaseMs = 60_000) => repos.buildJobs.take({ replica: 'test', leaseMs, maxAttempts: 3 })
  const finish = (lease: BuildLease) =>
    db.transaction().execute((trx) => createRepositories(trx).buildJobs.complete(trx, lease))
  return { db, repos, push, take, finish }
}

const commitOf = async (repos: Repositories, lease: BuildLease | undefined) =>
  lease && (await repos.deployments.findById(lease.deploymentId))?.commit_message

for (const engine of sqlEngines) {
  describe(`shared build queue (${engine})`, () => {
    test("another user's push is taken next, not behind one user's fifteen projects", async (t) => {
      const { repos, push, take, finish } = await queueHarness(t, engine)
      for (let index = 0; index < 15; index++) await push('busy@example.com', `busy-${index}`)
      const first = await take()
      assert.equal(await commitOf(repos, first), 'busy-0')
      await push('other@example.com', 'other')
      const second = await take()
      assert.equal(await commitOf(repos, second), 'other', 'the owner never served goes first')
      assert.ok(first && second)
      await finish(first)
      await finish(second)
      assert.equal(await commitOf(repos, await take()), 'busy-1')
    })

    test('one project builds one deployment at a time; the newest waiting push supersedes older ones', async (t) => {
      const { repos, push, take, finish } = await queueHarness(t, engine)
      const d1 = await push('u@example.com', 'p')
      const running = await take()
      assert.equal(running?.deploymentId, d1.deployment.id)
      const d2 = await push('u@example.com', 'p')
      const d3 = await push('u@example.com', 'p')
      assert.deepEqual(d3.superseded, [{ deploymentId: d2.deployment.id, by: d3.deployment.id }])
      const failed = await repos.deployments.findById(d2.deployment.id)
      assert.equal(failed?.status, 'failed')
      const { diagnostics } = await repos.deployments.diagnostics(d2.deployment.id, 0, 10)
      assert.deepEqual(
        diagnostics.map((diagnostic) => diagnostic.rule),
        ['build-superseded'],
      )
      assert.equal(failed?.error_count, 1)
      assert.equal(await take(), undefined, 'the project already has a build running')
      assert.deepEqual(await repos.buildJobs.depth(), { queued: 1, leased: 1 })
      assert.ok(running)
      assert.equal(await finish(running), true)
      assert.equal((await take())?.deploymentId, d3.deployment.id)
      // A second finalize of a claimed deployment queues nothing.
      const again = await repos.buildJobs.enqueue({
        deployment: d3.deployment,
        ownerId: 'whoever',
        promote: true,
        uploadMs: 1,
      })
      assert.deepEqual(again, { claimed: false, superseded: [] })
    })

    test('projects of one owner take turns, the least recently built first', async (t) => {
      const { repos, push, take, finish } = await queueHarness(t, engine)
      await push('u@example.com', 'a')
      await push('u@example.com', 'b')
      const order: string[] = []
      const next = async () => {
        const lease = await take()
        order.push((await commitOf(repos, lease)) ?? '-')
        if (lease) await finish(lease)
      }
      await next()
      await push('u@example.com', 'a')
      await push('u@example.com', 'c')
      await next()
      await next()
      await next()
      assert.deepEqual(order, ['a', 'b', 'c', 'a'])
    })

    test('a lease that runs out is taken again; only the current holder records the build', async (t) => {
      const { db, repos, push, take, finish } = await queueHarness(t, engine)
      const { deployment } = await push('u@example.com', 'p')
      const dead = await take(30_000)
      assert.ok(dead)
      assert.equal(await take(), undefined, 'held while the lease lasts')
      // Its holder went quiet: the lease ran out a second ago (no waiting: the row says so).
      await db
        .updateTable('build_jobs')
        .set({ lease_expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('deployment_id', '=', deployment.id)
        .execute()
      const retaken = await take()
      assert.equal(retaken?.deploymentId, deployment.id)
      assert.equal(retaken?.attempts, 2)
      assert.equal(await repos.buildJobs.renew(dead, 60_000), false, 'the dead holder lost it')
      assert.equal(await finish(dead), false, 'the dead holder cannot record it')
      assert.ok(retaken)
      assert.equal(await repos.buildJobs.renew(retaken, 60_000), true)
      assert.equal(await finish(retaken), true)
      assert.equal(await finish(retaken), false, 'recorded once')
      assert.equal(await take(), undefined)
    })

    test('a job whose lease ran out goes first, not behind the 13 builds queued meanwhile', async (t) => {
      const { db, repos, push, take } = await queueHarness(t, engine)
      const { deployment } = await push('killed@example.com', 'killed')
      const dead = await take(30_000)
      assert.equal(dead?.deploymentId, deployment.id)
      for (let index = 0; index < 13; index++) await push(`user-${index}@example.com`, `queued-${index}`)
      // Its replica was killed 31 s ago: the 30 s lease ran out a second ago.
      await db
        .updateTable('build_jobs')
        .set({ lease_expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('deployment_id', '=', deployment.id)
        .execute()
      const next = await take()
      assert.equal(await commitOf(repos, next), 'killed', 'the interrupted build is taken before the queue')
      assert.equal(next?.attempts, 2)
      assert.equal(await commitOf(repos, await take()), 'queued-0', 'then the queue in its order')
    })

    test('a released lease is taken again at once; a job that keeps killing its replica stops', async (t) => {
      const { repos, push, take } = await queueHarness(t, engine)
      const { deployment } = await push('u@example.com', 'p')
      const leased = await take()
      assert.ok(leased)
      assert.equal(await repos.buildJobs.release(leased), true)
      const again = await take(1)
      assert.equal(again?.attempts, 1, 'a release does not count as an attempt')
      for (let attempt = 2; attempt <= 3; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 10))
        assert.equal((await take(1))?.attempts, attempt)
      }
      await new Promise((resolve) => setTimeout(resolve, 10))
      assert.equal(await take(1), undefined)
      const failed = await repos.deployments.findById(deployment.id)
      assert.equal(failed?.status, 'failed')
      assert.match(failed?.error ?? '', /interrupted/)
    })
  })
}
