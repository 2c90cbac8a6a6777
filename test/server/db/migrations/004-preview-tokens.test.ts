/** Deployments made before preview tokens get one each, so their previews move to unguessable hosts. */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Kysely } from 'kysely'
import { sqlEngines } from '../../helper.js'
import { databaseAt, ownerWithProject } from '../helper.js'

for (const engine of sqlEngines) {
  describe(`004_preview_tokens (${engine})`, () => {
    test('existing deployments get distinct random tokens; new ones get one at creation', async (t) => {
      const { db, migrator, repos } = await databaseAt(t, engine, '003_analytics')
      const { project } = await ownerWithProject(repos, 'o@example.com', 'old', 'Old')
      const now = new Date().toISOString()
      for (const id of ['dpl_old1', 'dpl_old2']) {
        // The row as it was before the column existed.
        await (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
          .insertInto('deployments')
          .values({
            id,
            project_id: project!.id,
            status: 'ready',
            branch: 'main',
            commit_message: null,
            environment: null,
            file_count: 0,
            total_bytes: 0,
            diagnostics: '[]',
            timings: '{}',
            created_at: now,
            updated_at: now,
          })
          .execute()
      }
      assert.equal((await migrator.migrateToLatest()).error, undefined)
      const [first, second] = await Promise.all(
        ['dpl_old1', 'dpl_old2'].map((id) => repos.deployments.findById(id)),
      )
      assert.match(first!.preview_token, /^[2-7a-z]{26}$/)
      assert.match(second!.preview_token, /^[2-7a-z]{26}$/)
      assert.notEqual(first!.preview_token, second!.preview_token)
      assert.equal(
        (await repos.deployments.findByPreviewToken(project!.id, first!.preview_token))?.id,
        'dpl_old1',
      )

      const { deployment } = await repos.deployments.create({
        projectId: project!.id,
        branch: 'main',
        commitMessage: null,
        environment: null,
        files: [],
        blobExists: async () => false,
      })
      assert.match(deployment.preview_token, /^[2-7a-z]{26}$/)
    })
  })
}
