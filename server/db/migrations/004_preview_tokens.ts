/**
 * Preview hosts name a random token instead of the deployment id, which is time-ordered and appears in
 * API answers and logs. Existing deployments get a fresh token, so their old `<id>--<slug>` hosts stop
 * resolving and their new preview URLs are unguessable.
 */
import { type Kysely, sql } from 'kysely'
import { newPreviewToken } from '../../sites/preview-token.js'

declare module '../schema.js' {
  interface DeploymentsTable {
    /** The random label of the deployment's preview host (`<token>--<slug>.<base_domain>`). */
    preview_token: string
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('deployments').addColumn('preview_token', 'text').execute()
  const rows = await sql<{ id: string }>`select id from deployments`.execute(db)
  for (const row of rows.rows) {
    await sql`update deployments set preview_token = ${newPreviewToken()} where id = ${row.id}`.execute(db)
  }
  await db.schema
    .createIndex('deployments_preview_token')
    .on('deployments')
    .column('preview_token')
    .unique()
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('deployments_preview_token').execute()
  await db.schema.alterTable('deployments').dropColumn('preview_token').execute()
}
