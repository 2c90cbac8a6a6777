/**
 * The shared build queue (STYLE 13): a finalized deployment is a job row; a replica's worker takes the
 * next one with a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL; SQLite's single writer makes the same
 * transaction exclusive), renews it while building, and finishes it only while it still holds it, so a
 * build is recorded and promoted once even when an expired lease was taken again elsewhere.
 *
 * Fairness: at most one build per project at a time; a job whose lease ran out (its replica died) goes
 * first, since it already had its turn; then the owner served least recently, then that owner's project
 * served least recently. A project keeps only its newest waiting job.
 */
import { randomBytes } from 'node:crypto'
import { type Kysely, PostgresAdapter, type Selectable, sql, type Transaction } from 'kysely'
import { nowIso } from '../../ids.js'
import type { BuildJobsTable } from '../migrations/006_build_jobs.js'
import type { Database } from '../schema.js'
import { type DeploymentRow, replaceDiagnostics } from './deployments.js'

export type BuildJobRow = Selectable<BuildJobsTable>

/** A job this replica holds: only `token` lets it renew, finish or release the job. */
export interface BuildLease {
  deploymentId: string
  projectId: string
  ownerId: string
  promote: boolean
  token: string
  attempts: number
}

export const supersededMessage = (by: string): string =>
  `Superseded by the newer deployment ${by} of this project before it was built`

export const GAVE_UP_MESSAGE =
  'The build stopped its server every time it ran (its lease expired on each attempt); push again'

const queueKeyOf = (deployment: Pick<DeploymentRow, 'created_at' | 'id'>): string =>
  `${deployment.created_at} ${deployment.id}`

const isPostgres = (db: Kysely<Database>): boolean => db.getExecutor().adapter instanceof PostgresAdapter

type Executor = Kysely<Database> | Transaction<Database>

/** A failed build that never ran: the reason goes to `error` and one diagnostic; timings stay. */
async function failUnbuilt(
  trx: Executor,
  deploymentId: string,
  rule: string,
  message: string,
  error: string,
) {
  const failed = await trx
    .updateTable('deployments')
    .set({ status: 'failed', error, diagnostic_count: 1, error_count: 1, updated_at: nowIso() })
    .where('id', '=', deploymentId)
    .where('status', '=', 'building')
    .executeTakeFirst()
  if (Number(failed.numUpdatedRows) === 1)
    await replaceDiagnostics(trx, deploymentId, [{ severity: 'error', file: '', rule, message }])
}

export function buildJobsRepository(db: Kysely<Database>) {
  const postgres = isPostgres(db)
  return {
    /**
     * Move the deployment `uploading` → `building` (once: racing finalize calls claim it once) and queue
     * its job in the same transaction, so no deployment is ever `building` without a job. Older waiting
     * jobs of the project are superseded; if a newer one already waits, this one is. Answers whether
     * this call claimed it and which deployments were superseded (by which).
     */
    async enqueue(input: {
      deployment: Pick<DeploymentRow, 'id' | 'project_id' | 'created_at'>
      ownerId: string
      promote: boolean
      uploadMs: number
    }): Promise<{ claimed: boolean; superseded: { deploymentId: string; by: string }[] }> {
      const { deployment } = input
      return db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('deployments')
          .set({
            status: 'building',
            timings: JSON.stringify({ uploadMs: input.uploadMs }),
            updated_at: nowIso(),
          })
          .where('id', '=', deployment.id)
          .where('status', '=', 'uploading')
          .executeTakeFirst()
        if (Number(claimed.numUpdatedRows) !== 1) return { claimed: false, superseded: [] }
        let waiting = trx
          .selectFrom('build_jobs')
          .select(['deployment_id', 'queue_key'])
          .where('project_id', '=', deployment.project_id)
          .where('status', '=', 'queued')
        if (postgres) waiting = waiting.forUpdate()
        const queued = await waiting.execute()
        const key = queueKeyOf(deployment)
        const newer = queued
          .filter((job) => job.queue_key > key)
          .sort((a, b) => (a.queue_key < b.queue_key ? 1 : -1))[0]
        const superseded: { deploymentId: string; by: string }[] = []
        if (newer) superseded.push({ deploymentId: deployment.id, by: newer.deployment_id })
        else {
          for (const job of queued) superseded.push({ deploymentId: job.deployment_id, by: deployment.id })
          await trx
            .insertInto('build_jobs')
            .values({
              deployment_id: deployment.id,
              project_id: deployment.project_id,
              owner_id: input.ownerId,
              promote: input.promote ? 1 : 0,
              status: 'queued',
              queue_key: key,
              lease_token: null,
              lease_owner: null,
              lease_expires_at: null,
              attempts: 0,
              turn: null,
              created_at: nowIso(),
              finished_at: null,
            })
            .execute()
        }
        for (const { deploymentId, by } of superseded) {
          await trx.deleteFrom('build_jobs').where('deployment_id', '=', deploymentId).execute()
          const message = supersededMessage(by)
          await failUnbuilt(trx, deploymentId, 'build-superseded', message, message)
        }
        return { claimed: true, superseded }
      })
    },

    /**
     * Lease the next job for `leaseMs`: one whose lease ran out (its replica died) before any waiting
     * one, so a killed replica's build never waits behind the whole queue again. A job already taken `maxAttempts` times fails instead. Undefined when nothing may run now.
     */
    async take(options: {
      replica: string
      leaseMs: number
      maxAttempts: number
    }): Promise<BuildLease | undefined> {
      for (;;) {
        const outcome = await db.transaction().execute(async (trx) => {
          const now = nowIso()
          const candidates = await sql<BuildJobRow>`
            select j.* from build_jobs j
            where (j.status = 'queued' or (j.status = 'leased' and j.lease_expires_at < ${now}))
              and not exists (
                select 1 from build_jobs r
                where r.project_id = j.project_id and r.deployment_id <> j.deployment_id
                  and r.status = 'leased' and r.lease_expires_at >= ${now})
            order by
              -- A job whose replica died has waited its turn already: it goes before the whole queue.
              case when j.status = 'leased' then 0 else 1 end,
              j.lease_expires_at,
              (select coalesce(max(o.turn), 0) from build_jobs o where o.owner_id = j.owner_id),
              (select coalesce(max(p.turn), 0) from build_jobs p where p.project_id = j.project_id),
              j.queue_key
            limit 1
            ${postgres ? sql`for update of j skip locked` : sql``}
          `.execute(trx)
          const job = candidates.rows[0]
          if (!job) return 'empty' as const
          if (job.attempts >= options.maxAttempts) {
            await trx
              .updateTable('build_jobs')
              .set({ status: 'done', lease_token: null, lease_expires_at: null, finished_at: now })
              .where('deployment_id', '=', job.deployment_id)
              .execute()
            await failUnbuilt(
              trx,
              job.deployment_id,
              'build-interrupted',
              GAVE_UP_MESSAGE,
              'The build was interrupted',
            )
            return 'gave-up' as const
          }
          const last = await trx
            .selectFrom('build_jobs')
            .select((eb) => eb.fn.max<number | string | null>('turn').as('turn'))
            .executeTakeFirst()
          const token = randomBytes(16).toString('hex')
          await trx
            .updateTable('build_jobs')
            .set({
              status: 'leased',
              lease_token: token,
              lease_owner: options.replica,
              lease_expires_at: new Date(Date.now() + options.leaseMs).toISOString(),
              attempts: job.attempts + 1,
              turn: Number(last?.turn ?? 0) + 1,
            })
            .where('deployment_id', '=', job.deployment_id)
            .execute()
          const lease: BuildLease = {
            deploymentId: job.deployment_id,
            projectId: job.project_id,
            ownerId: job.owner_id,
            promote: Number(job.promote) === 1,
            token,
            attempts: Number(job.attempts) + 1,
          }
          return lease
        })
        if (outcome === 'empty') return undefined
        if (outcome !== 'gave-up') return outcome
      }
    },

    /** Extend a lease this replica still holds; false when it was lost (expired and taken again). */
    async renew(lease: BuildLease, leaseMs: number): Promise<boolean> {
      const result = await db
        .updateTable('build_jobs')
        .set({ lease_expires_at: new Date(Date.now() + leaseMs).toISOString() })
        .where('deployment_id', '=', lease.deploymentId)
        .where('lease_token', '=', lease.token)
        .where('status', '=', 'leased')
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    /** Give a job back unfinished (a replica shutting down): the next replica takes it at once. */
    async release(lease: BuildLease): Promise<boolean> {
      const result = await db
        .updateTable('build_jobs')
        .set({
          status: 'queued',
          lease_token: null,
          lease_owner: null,
          lease_expires_at: null,
          attempts: Math.max(0, lease.attempts - 1),
        })
        .where('deployment_id', '=', lease.deploymentId)
        .where('lease_token', '=', lease.token)
        .where('status', '=', 'leased')
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    /**
     * Mark the job done inside the transaction that records the build; false (and nothing may be
     * recorded) when this replica no longer holds the lease.
     */
    async complete(trx: Executor, lease: BuildLease): Promise<boolean> {
      const result = await trx
        .updateTable('build_jobs')
        .set({ status: 'done', lease_token: null, lease_expires_at: null, finished_at: nowIso() })
        .where('deployment_id', '=', lease.deploymentId)
        .where('lease_token', '=', lease.token)
        .where('status', '=', 'leased')
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    /** Jobs waiting and jobs leased, across every replica: the queue depth. */
    async depth(): Promise<{ queued: number; leased: number }> {
      const rows = await db
        .selectFrom('build_jobs')
        .select((eb) => ['status', eb.fn.countAll<number | string>().as('count')])
        .where('status', 'in', ['queued', 'leased'])
        .groupBy('status')
        .execute()
      const count = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0)
      return { queued: count('queued'), leased: count('leased') }
    },

    /** Done jobs finished before `before` are forgotten; their turns only matter for a while. */
    async forgetDone(before: string): Promise<number> {
      const result = await db
        .deleteFrom('build_jobs')
        .where('status', '=', 'done')
        .where('finished_at', '<', before)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
