/**
 * Migration 005 replaces `site_hosts` (hosts served without any proof) with `domains`: each old row
 * becomes a pending domain, which serves nothing until DNS verifies it.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Migrator, sql } from 'kysely'
import { migrateToLatest, openDatabase } from '../../../../server/db/index.js'
import { StaticMigrationProvider } from '../../../../server/db/migrations/index.js'
import { createRepositories } from '../../../../server/db/repositories/index.js'
import { engines, testConfig } from '../../helper.js'

for (const engine of engines) {
  test(`site_hosts rows become pending domains that serve nothing (${engine})`, async (t) => {
    const { db, schema } = openDatabase(await testConfig(t, engine))
    t.after(() => db.destroy())
    const migrator = new Migrator({
      db,
      provider: new StaticMigrationProvider(),
      ...(schema ? { migrationTableSchema: schema } : {}),
    })
    assert.equal((await migrator.migrateTo('004_preview_tokens')).error, undefined)
    const repos = createRepositories(db)
    const owner = await repos.users.findOrCreate('o@example.com')
    const project = await repos.projects.create({
      ownerId: owner.id,
      slug: 'acme',
      name: 'A',
      description: null,
    })
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
