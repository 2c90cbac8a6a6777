/**
 * CDN purges become jobs in the database, so a purge waiting to be tried again outlives the replica
 * that asked for it: any replica takes a due job with a lease, sends it, and records the outcome.
 * A job names the cache tags to purge and the site URLs under which the changed pages live, for CDNs
 * that purge by URL rather than by tag.
 */
import type { Kysely } from 'kysely'

export type CdnPurgeStatus = 'queued' | 'leased' | 'done' | 'failed'

export interface CdnPurgesTable {
  id: string
  /** Why the site changed: promote, preview, domain, project-deleted, gc… */
  reason: string
  /** JSON array of cache tags (`project-<id>`, `deployment-<id>`). */
  tags: string
  /** JSON array of site base URLs (`https://acme.docs.example.com/`): every page under each changed. */
  urls: string
  status: CdnPurgeStatus
  /** Sends tried so far; a purge the CDN keeps refusing stops after a few. */
  attempts: number
  /** A queued job is not taken before this (its backoff after a failed send). */
  next_attempt_at: string
  /** Random per lease: only the holder of the current lease may finish or reschedule the job. */
  lease_token: string | null
  lease_expires_at: string | null
  /** The last failure, for people reading the table. */
  last_error: string | null
  created_at: string
  finished_at: string | null
}

declare module '../schema.js' {
  interface Database {
    cdn_purges: CdnPurgesTable
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cdn_purges')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('reason', 'text', (column) => column.notNull())
    .addColumn('tags', 'text', (column) => column.notNull())
    .addColumn('urls', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull())
    .addColumn('next_attempt_at', 'text', (column) => column.notNull())
    .addColumn('lease_token', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('finished_at', 'text')
    .execute()
  await db.schema
    .createIndex('cdn_purges_due')
    .on('cdn_purges')
    .columns(['status', 'next_attempt_at'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cdn_purges').execute()
}
