/**
 * Promotions and domain changes, recorded for replicas that poll (their PostgreSQL listening connection
 * dropped, so they missed the notification). Rows are kept for a short while only.
 */
import type { Kysely, Selectable, Transaction } from 'kysely'
import { newId, nowIso } from '../../ids.js'
import type { SiteChangesTable } from '../migrations/006_build_jobs.js'
import type { Database } from '../schema.js'

export type SiteChangeRow = Selectable<SiteChangesTable>

/** What changed: a project's live deployment (or the project itself), or a custom domain's serving. */
export type SiteChange = { projectId: string } | { hostname: string }

export function siteChangesRepository(db: Kysely<Database>) {
  return {
    async record(
      change: SiteChange,
      trx: Kysely<Database> | Transaction<Database> = db,
    ): Promise<SiteChangeRow> {
      const row: SiteChangeRow = {
        id: newId('chg'),
        project_id: 'projectId' in change ? change.projectId : null,
        hostname: 'hostname' in change ? change.hostname : null,
        created_at: nowIso(),
      }
      await trx.insertInto('site_changes').values(row).execute()
      return row
    },

    /** Changes recorded at or after `since` (ISO), oldest first. */
    since: (since: string): Promise<SiteChangeRow[]> =>
      db
        .selectFrom('site_changes')
        .selectAll()
        .where('created_at', '>=', since)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),

    async forgetBefore(before: string): Promise<number> {
      const result = await db.deleteFrom('site_changes').where('created_at', '<', before).executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
