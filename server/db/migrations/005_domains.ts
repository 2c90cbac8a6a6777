/**
 * Custom domains, each proven in DNS before it serves. One row per (hostname, path prefix) claim of a
 * project; a partial unique index lets a claim be made once while it is alive (not expired).
 * Replaces `site_hosts`, which served a host without any proof: its rows become pending domains.
 */
import { randomBytes } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import { newId, nowIso } from '../../ids.js'
import { createSiteHostsTable } from './001_core.js'
import { createProjectRowsTable } from './columns.js'

export type DomainStatus = 'pending' | 'verified' | 'failed' | 'expired'

export interface DomainsTable {
  id: string
  project_id: string
  /** Lower-case ASCII (IDNA) host name, no port, no trailing dot. */
  hostname: string
  /** `''` for the whole host, else `/docs`. */
  path_prefix: string
  /** The value of the ownership TXT record: random, one per claim. */
  challenge: string
  status: DomainStatus
  /** Why the last check failed (record_missing, wrong_value, …); null when it passed. */
  failure_reason: string | null
  failure_message: string | null
  /** JSON: the last check's result per record purpose ({ownership, routing}). */
  record_checks: string
  created_at: string
  verified_at: string | null
  last_checked_at: string | null
  /** First failed check of a verified domain: the grace period runs from here. */
  failing_since: string | null
  /** When the claim last became unverified: it expires 30 days later. */
  unverified_since: string
}

declare module '../schema.js' {
  interface Database {
    domains: DomainsTable
  }
}

/** 160 random bits: unguessable, so no other claim can know or reuse the value. */
export const newChallenge = (): string => `docs-verify=${randomBytes(20).toString('hex')}`

export async function up(db: Kysely<unknown>): Promise<void> {
  await createProjectRowsTable(db, 'domains')
    .addColumn('hostname', 'text', (column) => column.notNull())
    .addColumn('path_prefix', 'text', (column) => column.notNull())
    .addColumn('challenge', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('failure_message', 'text')
    .addColumn('record_checks', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('verified_at', 'text')
    .addColumn('last_checked_at', 'text')
    .addColumn('failing_since', 'text')
    .addColumn('unverified_since', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('domains_project_id').on('domains').column('project_id').execute()
  await db.schema
    .createIndex('domains_live_claim')
    .on('domains')
    .columns(['hostname', 'path_prefix'])
    .unique()
    .where(sql.ref('status'), '<>', 'expired')
    .execute()

  const hosts = await sql<{ host: string; project_id: string; path_prefix: string }>`
    select host, project_id, path_prefix from site_hosts
  `.execute(db)
  const now = nowIso()
  for (const row of hosts.rows) {
    await sql`
      insert into domains (id, project_id, hostname, path_prefix, challenge, status, record_checks, created_at, unverified_since)
      values (${newId('dom')}, ${row.project_id}, ${row.host.replace(/:\d+$/, '')}, ${row.path_prefix.replace(/\/+$/, '')},
              ${newChallenge()}, 'pending', '{}', ${now}, ${now})
      on conflict do nothing
    `.execute(db)
  }
  await db.schema.dropTable('site_hosts').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('domains').execute()
  await createSiteHostsTable(db)
}
