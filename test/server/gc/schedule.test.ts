/**
 * Periodic garbage collection on both sqlEngines: one run per time slot whichever replica asks, recorded
 * in `gc_runs`; retention counts only deployments that were live, and keeps a Git branch's preview.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { GarbageCollector } from '../../../server/gc/collector.js'
import { GcSchedule } from '../../../server/gc/schedule.js'
import { needs } from '../../tier.js'
import { appWithProject, bearer, deploy, fixtureSite, sqlEngines } from '../helper.js'

for (const engine of sqlEngines) {
  test(`a time slot runs once and is recorded; old live deployments go, branch previews stay (${engine})`, {
    skip: engine === 'postgres' && needs('PostgreSQL'),
  }, async (t) => {
    const { app, token, project } = await appWithProject(t, 'slots', engine)
    const site = await fixtureSite('minimal')
    const ids: string[] = []
    for (const [index, promote] of [true, true, false, true].entries()) {
      site.set('index.mdx', Buffer.from(`# Version ${index}\n`))
      const pushed = await deploy(app, token, 'slots', site, { promote })
      assert.equal(pushed.finalized.statusCode, 200, pushed.finalized.body)
      ids.push(pushed.id)
    }
    // Roll back to the first: it is live again, and the newest is a rollback target.
    const rollback = await app.inject({
      method: 'POST',
      url: `/projects/slug/slots/deployments/${ids[0]}/promote`,
      headers: bearer(token),
    })
    assert.equal(rollback.statusCode, 200)

    // The preview is a Git branch's current one: served at its branch host, so kept like a live one.
    await app.db
      .insertInto('git_branch_previews')
      .values({
        project_id: project.id,
        branch_slug: 'feature',
        branch: 'feature',
        deployment_id: ids[2]!,
        updated_at: new Date().toISOString(),
      })
      .execute()
    const collector = new GarbageCollector(app.repos, app.blobs, {
      keepDeployments: 2,
      keepAgeSeconds: 0,
      graceSeconds: 0,
    })
    const log = { info: () => {}, error: () => {} } as unknown as ConstructorParameters<typeof GcSchedule>[3]
    const replicaA = new GcSchedule(app.repos, collector, 60, log)
    const replicaB = new GcSchedule(app.repos, collector, 60, log)
    const report = await replicaA.runSlot(1234)
    assert.ok(report)
    assert.equal(await replicaB.runSlot(1234), undefined, 'the other replica finds the slot taken')
    // Kept: the live one (ids[0]), the last other once-live one (ids[3]) and the branch preview (ids[2]).
    assert.deepEqual(
      report.deployments.map((deployment) => [deployment.id, deployment.reason]),
      [[ids[1], 'older than the last 2 live deployments']],
    )
    const runs = await app.db.selectFrom('gc_runs').selectAll().execute()
    assert.equal(runs.length, 1)
    assert.equal(runs[0]?.deployments_deleted, 1)
    assert.equal(Number(runs[0]?.blobs_deleted), report.blobsDeleted)
    assert.ok(runs[0]?.finished_at)
    const live = await app.inject({ url: '/', headers: { host: 'slots.localhost:8080' } })
    assert.match(live.body, /Version 0/)
  })
}
