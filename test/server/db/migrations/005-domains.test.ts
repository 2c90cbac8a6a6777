/**
 * Migration 005 replaces `site_hosts` (hosts served without any proof) with `domains`: each old row
 * becomes a pending domain, which serves nothing until DNS verifies it.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { migrateToLatest } from '../../../../server/db/index.js'
import { sqlEngines } from '../../helper.js'
import { databaseAt, ownerWithProject } from '../helper.js'

for (const engine of sqlEngines) {
  test(`site_hosts rows become pending domains that serve nothing (${engine})`, async (t) => {
    const { db, schema, repos } = await databaseAt(t, engine, '004_preview_tokens')
    const { project } = await ownerWithProject(repos, 'o@example.com', 'acme', 'A')
    assert.ok(project)
    await sql`insert into site_hosts (host, project_id, path_prefix, created_at)
              values ('docs.example.com:8443', ${project.id}, '/docs/', '2026-01-01T00:00:00.000Z')`.execute(
      db,
    )

    await migrateToLatest(db, schema)
    const [domain, ...others] = await repos.domains.listByProject(project.id)
    assert.deepEqual(others, [])
    assert.equal(domain?.hostname, 'docs.example.com')
    assert.equal(domain?.path_prefix, '/docs')
    assert.equal(domain?.status, 'pending')
    assert.match(domain?.challenge ?? '', /^docs-verify=[0-9a-f]{40}$/)
    assert.deepEqual(await repos.domains.servingMounts('docs.example.com'), [])
  })
}
