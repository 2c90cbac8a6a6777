/**
 * Per-project analytics settings (one provider today: PostHog). A public project key and its host
 * are all a built site needs; nothing secret is stored here. Row type: ProjectAnalyticsTable.
 */
import type { Kysely } from 'kysely'
import { deletedWith } from './columns.js'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('project_analytics')
    .addColumn('project_id', 'text', deletedWith('projects'))
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('public_key', 'text', (column) => column.notNull())
    .addColumn('host', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('project_analytics_pkey', ['project_id', 'provider'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('project_analytics').execute()
}
