/**
 * CDN purges as jobs (STYLE 13): a purge is a row before it is sent, so one waiting to be tried again
 * outlives its replica. A replica leases a due job (`FOR UPDATE SKIP LOCKED` on PostgreSQL; the guarded
 * update makes it once on SQLite), sends it, and finishes or reschedules it only while it holds the
 * lease; a job whose replica died mid-send is taken again when its lease runs out.
 */
import { randomBytes } from 'node:crypto'
import { type Kysely, PostgresAdapter } from 'kysely'
import { newId } from '../../ids.js'
import type { Database } from '../schema.js'

/** A purge this replica holds: only `token` lets it finish or reschedule the job. */
export interface CdnPurgeLease {
  id: string
  reason: string
  tags: string[]
  urls: string[]
  /** Sends tried, this one included. */
  attempts: number
  token: string
}

const iso = (epochMs: number): string => new Date(epochMs).toISOString()

export function cdnPurgesRepository(db: Kysely<Database>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  return {
    /** Record a purge to send, due at once; answers its id. */
    async enqueue(input: { reason: string; tags: readonly string[]; urls: readonly string[]; now: number }) {
      const id = newId('cdp', input.now)
      await db
        .insertInto('cdn_purges')
        .values({
          id,
          reason: input.reason,
          tags: JSON.stringify(input.tags),
          urls: JSON.stringify(input.urls),
          status: 'queued',
          attempts: 0,
          next_attempt_at: iso(input.now),
          lease_token: null,
          lease_expires_at: null,
          last_error: null,
          created_at: iso(input.now),
          finished_at: null,
        })
        .execute()
      return id
    },

    /**
     * Lease a due job for `leaseMs`: a queued one whose backoff is over, or one whose lease ran out (its
     * replica died mid-send); the one named `id` when given. Undefined when none is due.
     */
    async take(options: { now: number; leaseMs: number; id?: string }): Promise<CdnPurgeLease | undefined> {
      const now = iso(options.now)
      return db.transaction().execute(async (trx) => {
        let due = trx
          .selectFrom('cdn_purges')
          .selectAll()
          .where((eb) =>
            eb.or([
              eb.and([eb('status', '=', 'queued'), eb('next_attempt_at', '<=', now)]),
              eb.and([eb('status', '=', 'leased'), eb('lease_expires_at', '<', now)]),
            ]),
          )
        if (options.id !== undefined) due = due.where('id', '=', options.id)
        due = due.orderBy('next_attempt_at').orderBy('id').limit(1)
        if (postgres) due = due.forUpdate().skipLocked()
        const row = await due.executeTakeFirst()
        if (!row) return undefined
        const token = randomBytes(16).toString('hex')
        const attempts = Number(row.attempts) + 1
        const leased = await trx
          .updateTable('cdn_purges')
          .set({
            status: 'leased',
            lease_token: token,
            lease_expires_at: iso(options.now + options.leaseMs),
            attempts,
          })
          .where('id', '=', row.id)
          .where('status', '=', row.status)
          .where('attempts', '=', row.attempts)
          .executeTakeFirst()
        if (Number(leased.numUpdatedRows) !== 1) return undefined
        return {
          id: row.id,
          reason: row.reason,
          tags: JSON.parse(row.tags) as string[],
          urls: JSON.parse(row.urls) as string[],
          attempts,
          token,
        }
      })
    },

    /** The job ended: sent (`done`) or given up (`failed`, with why). False when the lease was lost. */
    async finish(
      lease: CdnPurgeLease,
      outcome: { status: 'done' } | { status: 'failed'; error: string },
      now: number,
    ): Promise<boolean> {
      const result = await db
        .updateTable('cdn_purges')
        .set({
          status: outcome.status,
          last_error: outcome.status === 'failed' ? outcome.error : null,
          lease_token: null,
          lease_expires_at: null,
          finished_at: iso(now),
        })
        .where('id', '=', lease.id)
        .where('lease_token', '=', lease.token)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    /** Back to the queue after a failed send, due at `at` (its backoff). False when the lease was lost. */
    async retryLater(lease: CdnPurgeLease, error: string, at: number): Promise<boolean> {
      const result = await db
        .updateTable('cdn_purges')
        .set({
          status: 'queued',
          last_error: error,
          next_attempt_at: iso(at),
          lease_token: null,
          lease_expires_at: null,
        })
        .where('id', '=', lease.id)
        .where('lease_token', '=', lease.token)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    /** Purges queued or being sent, across every replica. */
    async pending(): Promise<number> {
      const row = await db
        .selectFrom('cdn_purges')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('status', 'in', ['queued', 'leased'])
        .executeTakeFirst()
      return Number(row?.count ?? 0)
    },

    /** Finished jobs older than `before` are forgotten. */
    async forgetFinished(before: number): Promise<number> {
      const result = await db
        .deleteFrom('cdn_purges')
        .where('status', 'in', ['done', 'failed'])
        .where('finished_at', '<', iso(before))
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
