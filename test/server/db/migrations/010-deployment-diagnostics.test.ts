/** Diagnostics stored in a deployment's row move to rows of their own, shortened and capped on the way. */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Kysely } from 'kysely'
import { MAX_DIAGNOSTICS_BYTES, MAX_MESSAGE_CHARS } from '../../../../compiler/diagnostics.js'
import { sqlEngines } from '../../helper.js'
import { databaseAt, ownerWithProject } from '../helper.js'

for (const engine of sqlEngines) {
  describe(`010_deployment_diagnostics (${engine})`, () => {
    test('a row of 3 MB of diagnostics becomes at most 256 KB of rows, errors first, with counts', async (t) => {
      const { db, migrator, repos } = await databaseAt(t, engine, '009_dashboard_sessions')
      const { project } = await ownerWithProject(repos, 'o@example.com', 'old', 'Old')
      const long = Array.from({ length: 600 }, (_, index) => ({
        severity: 'warning',
        file: 'page.mdx',
        line: index + 1,
        rule: 'forbidden-attribute',
        message: `Unexpected \`${'a'.repeat(5_000)}\` on <i>, expected an attribute a page can use; it is left out ${'z'.repeat(400)}`,
      }))
      const error = { severity: 'error', file: 'z.mdx', rule: 'page-limit', message: 'too big' }
      const now = new Date().toISOString()
      const rows = { dpl_flood: [...long, error], dpl_clean: [], dpl_broken: null }
      for (const [id, diagnostics] of Object.entries(rows)) {
        // The row as it was before the migration.
        await (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
          .insertInto('deployments')
          .values({
            id,
            project_id: project!.id,
            status: 'failed',
            branch: 'main',
            commit_message: null,
            environment: null,
            file_count: 0,
            total_bytes: 0,
            diagnostics: diagnostics ? JSON.stringify(diagnostics) : '{not json',
            timings: '{}',
            preview_token: `tok${id}`,
            created_at: now,
            updated_at: now,
          })
          .execute()
      }
      assert.equal((await migrator.migrateToLatest()).error, undefined)

      const flood = await repos.deployments.findById('dpl_flood')
      assert.equal(flood?.error_count, 1)
      assert.equal('diagnostics' in (flood ?? {}), false, 'the column is gone')
      const { diagnostics, next } = await repos.deployments.diagnostics('dpl_flood', 0, 1000)
      assert.equal(next, null)
      assert.equal(diagnostics.length, flood?.diagnostic_count)
      assert.ok(diagnostics.length > 100 && diagnostics.length < 601, `${diagnostics.length} kept`)
      assert.deepEqual(diagnostics[0], error)
      assert.equal(diagnostics[1]?.line, 1)
      assert.equal(diagnostics.at(-1)?.rule, 'diagnostics-limit')
      assert.equal(diagnostics.at(-1)?.message.startsWith(`${601 - (diagnostics.length - 1)} more`), true)
      assert.ok(diagnostics.every((diagnostic) => diagnostic.message.length <= MAX_MESSAGE_CHARS))
      assert.ok(Buffer.byteLength(JSON.stringify(diagnostics)) <= MAX_DIAGNOSTICS_BYTES)
      for (const id of ['dpl_clean', 'dpl_broken']) {
        assert.equal((await repos.deployments.findById(id))?.diagnostic_count, 0)
        assert.deepEqual((await repos.deployments.diagnostics(id, 0, 10)).diagnostics, [])
      }
      // Deleting a deployment deletes its diagnostics.
      await db.deleteFrom('deployments').where('id', '=', 'dpl_flood').execute()
      const left = await db
        .selectFrom('deployment_diagnostics')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirst()
      assert.equal(Number(left?.count), 0)
    })
  })
}
