/**
 * Builds become jobs in the database, so any replica's workers can take them: one row per finalized
 * deployment, leased by one replica at a time and renewed while it builds; a lease that runs out is
 * taken again. `site_changes` records promotions and domain changes for replicas that missed the
 * PostgreSQL notification (the listening connection dropped) and poll instead.
 */
import type { Kysely } from 'kysely'
import { deletedWith } from './columns.js'

export type BuildJobStatus = 'queued' | 'leased' | 'done'

export interface BuildJobsTable {
  deployment_id: string
  project_id: string
  owner_id: string
  /** 1: promote the deployment when it builds (finalize's `promote`). */
  promote: number
  status: BuildJobStatus
  /** `created_at`, a space, id of the deployment: a project's newest job wins. */
  queue_key: string
  /** Random per lease: only the holder of the current lease may renew, finish or release it. */
  lease_token: string | null
  /** Which replica holds the lease (host, pid), for people reading the table. */
  lease_owner: string | null
  lease_expires_at: string | null
  /** Leases taken so far; a job whose builds keep killing their replica stops after a few. */
  attempts: number
  /** A counter across the table when the job was last taken: the least recently served owner goes next. */
  turn: number | null
  created_at: string
  finished_at: string | null
}

export interface SiteChangesTable {
  id: string
  /** The project whose live deployment changed (or that was deleted). */
  project_id: string | null
  /** The custom domain that started or stopped serving. */
  hostname: string | null
  created_at: string
}

declare module '../schema.js' {
  interface Database {
    build_jobs: BuildJobsTable
    site_changes: SiteChangesTable
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('build_jobs')
    .addColumn('deployment_id', 'text', (column) =>
      column.primaryKey().references('deployments.id').onDelete('cascade'),
    )
    .addColumn('project_id', 'text', deletedWith('projects'))
    .addColumn('owner_id', 'text', (column) => column.notNull())
    .addColumn('promote', 'integer', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('queue_key', 'text', (column) => column.notNull())
    .addColumn('lease_token', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('attempts', 'integer', (column) => column.notNull())
    .addColumn('turn', 'integer')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('finished_at', 'text')
    .execute()
  await db.schema.createIndex('build_jobs_status').on('build_jobs').columns(['status', 'queue_key']).execute()
  await db.schema
    .createIndex('build_jobs_project')
    .on('build_jobs')
    .columns(['project_id', 'status'])
    .execute()
  await db.schema
    .createIndex('build_jobs_owner_turn')
    .on('build_jobs')
    .columns(['owner_id', 'turn'])
    .execute()

  await db.schema
    .createTable('site_changes')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text')
    .addColumn('hostname', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('site_changes_created_at').on('site_changes').column('created_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('site_changes').execute()
  await db.schema.dropTable('build_jobs').execute()
}
