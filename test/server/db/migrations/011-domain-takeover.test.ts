/**
 * Migration 011: a pending claim made before it no longer blocks the name for other projects; one
 * project still claims a name once, and only one claim of a name can be verified. Down keeps one live
 * claim per name.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { migrateToLatest } from '../../../../server/db/index.js'
import { markVerified } from '../../domains/dns-server.js'
import { sqlEngines } from '../../helper.js'
import { databaseAt, ownerWithProject } from '../helper.js'

for (const engine of sqlEngines) {
  test(`pending claims stop blocking a name for other projects (${engine})`, async (t) => {
    const { db, schema, repos, migrator } = await databaseAt(t, engine, '010_deployment_diagnostics')
    const { project: squatter } = await ownerWithProject(repos, 'm@example.com', 'squat', 'S')
    const { project: owner } = await ownerWithProject(repos, 'o@example.com', 'acme', 'A')
    const claim = { hostname: 'docs.example.com', pathPrefix: '/docs' }
    const pending = await repos.domains.create({ projectId: squatter.id, ...claim })
    assert.ok(pending)
    assert.equal(await repos.domains.create({ projectId: owner.id, ...claim }), undefined, 'blocked before')

    await migrateToLatest(db, schema)
    const mine = await repos.domains.create({ projectId: owner.id, ...claim })
    assert.ok(mine, 'another project may claim the name')
    assert.equal(await repos.domains.create({ projectId: owner.id, ...claim }), undefined, 'once per project')
    await markVerified(repos, mine)
    await assert.rejects(markVerified(repos, pending), 'only one verified claim of a name')

    const { error } = await migrator.migrateTo('010_deployment_diagnostics')
    assert.equal(error, undefined)
    assert.equal((await repos.domains.findById(mine.id))?.status, 'verified')
    assert.equal((await repos.domains.findById(pending.id))?.status, 'expired', 'the verified claim is kept')
  })
}
