/**
 * Retention and garbage collection: when each deployment last went live (the last N of those per
 * project are kept as rollback targets; one never live is a preview, kept only while young), and one
 * row per garbage collection, so replicas take turns and an operator sees what each run freed.
 */
import { type Kysely, sql } from 'kysely'
import { nowIso } from '../../ids.js'

export interface GcRunsTable {
  id: string
  started_at: string
  finished_at: string | null
  dry_run: number
  deployments_deleted: number
  blobs_deleted: number
  bytes_freed: number
  error: string | null
}

declare module '../schema.js' {
  interface DeploymentsTable {
    /** When it last went live (promotion or rollback); null for a deployment never live (a preview). */
    live_at: string | null
  }
  interface Database {
    gc_runs: GcRunsTable
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('deployments').addColumn('live_at', 'text').execute()
  await sql`update deployments set live_at = ${nowIso()} where id in (select live_deployment_id from projects)`.execute(
    db,
  )
  await db.schema
    .createTable('gc_runs')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('started_at', 'text', (column) => column.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('dry_run', 'integer', (column) => column.notNull())
    .addColumn('deployments_deleted', 'integer', (column) => column.notNull())
    .addColumn('blobs_deleted', 'integer', (column) => column.notNull())
    .addColumn('bytes_freed', 'bigint', (column) => column.notNull())
    .addColumn('error', 'text')
    .execute()
  await db.schema.createIndex('gc_runs_started').on('gc_runs').column('started_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('gc_runs').execute()
  await db.schema.alterTable('deployments').dropColumn('live_at').execute()
}
