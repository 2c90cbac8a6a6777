/**
 * Reader insights (migration 015): a batch of accepted events written in one transaction (raw rows,
 * additive daily counts, comments, the day's visitor hashes), the reports read back per project and
 * date range, and the prune of raw events past their keep. Counts add up with
 * `total = insight_daily.total + excluded.total`, so replicas writing the same day never lose one.
 */
import { type Kysely, sql } from 'kysely'
import { newId, nowIso } from '../../ids.js'
import type { InsightKind } from '../migrations/015_insights.js'
import type { Database } from '../schema.js'

/** One accepted event, as the raw table keeps it. */
export interface InsightEventRow {
  projectId: string
  day: string
  kind: InsightKind
  path: string
  detail: Record<string, string | number | boolean | null>
}

/** What one flush writes: every count is the sum of this batch's events for its project, day, metric and key. */
export interface InsightBatch {
  events: InsightEventRow[]
  counts: { projectId: string; day: string; metric: string; key: string; total: number }[]
  comments: { projectId: string; day: string; path: string; helpful: boolean; comment: string }[]
  visitors: { projectId: string; day: string; visitor: string }[]
}

export interface InsightRange {
  projectId: string
  /** First and last UTC day, inclusive (`YYYY-MM-DD`). */
  from: string
  to: string
}

/** The part of a batch that belongs to `projects`. */
function ofProjects(batch: InsightBatch, projects: ReadonlySet<string>): InsightBatch {
  const kept = (row: { projectId: string }) => projects.has(row.projectId)
  return {
    events: batch.events.filter(kept),
    counts: batch.counts.filter(kept),
    comments: batch.comments.filter(kept),
    visitors: batch.visitors.filter(kept),
  }
}

/** Rows a statement may bind at most: SQLite allows 32,766 variables, PostgreSQL 65,535; 7 columns a row. */
const rowsPerInsert = 500

function chunks<T>(items: readonly T[], size = rowsPerInsert): T[][] {
  const out: T[][] = []
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size))
  return out
}

export function insightsRepository(db: Kysely<Database>) {
  return {
    /** Whether the project keeps reader events (on unless turned off). */
    async enabled(projectId: string): Promise<boolean> {
      const row = await db
        .selectFrom('insight_settings')
        .select('enabled')
        .where('project_id', '=', projectId)
        .executeTakeFirst()
      return row === undefined || Number(row.enabled) === 1
    },

    async setEnabled(projectId: string, enabled: boolean): Promise<void> {
      const now = nowIso()
      await db
        .insertInto('insight_settings')
        .values({ project_id: projectId, enabled: enabled ? 1 : 0, updated_at: now })
        .onConflict((conflict) =>
          conflict.column('project_id').doUpdateSet({ enabled: enabled ? 1 : 0, updated_at: now }),
        )
        .execute()
    },

    /**
     * Writes one batch whole or not at all. Events of a project deleted since they were accepted go with
     * it: their rows would break the foreign key, and the whole batch with them at every try. A project
     * deleted between the look and the writes fails the batch once; the next try finds it gone.
     */
    async record(recorded: InsightBatch): Promise<void> {
      const now = nowIso()
      // Before the transaction: on SQLite a read would make it a reader that cannot become a writer
      // once another connection has written (SQLITE_BUSY at once, not after the busy timeout).
      const named = [...new Set([...recorded.events, ...recorded.counts].map((row) => row.projectId))]
      const live = new Set(
        named.length === 0
          ? []
          : (await db.selectFrom('projects').select('id').where('id', 'in', named).execute()).map(
              (row) => row.id,
            ),
      )
      const batch = live.size === named.length ? recorded : ofProjects(recorded, live)
      await db.transaction().execute(async (trx) => {
        for (const part of chunks(batch.events)) {
          await trx
            .insertInto('insight_events')
            .values(
              part.map((event) => ({
                id: newId('evt'),
                project_id: event.projectId,
                day: event.day,
                kind: event.kind,
                path: event.path,
                detail: JSON.stringify(event.detail),
                created_at: now,
              })),
            )
            .execute()
        }
        for (const part of chunks(batch.counts)) {
          await trx
            .insertInto('insight_daily')
            .values(
              part.map((count) => ({
                project_id: count.projectId,
                day: count.day,
                metric: count.metric,
                key: count.key,
                total: count.total,
              })),
            )
            .onConflict((conflict) =>
              conflict
                .columns(['project_id', 'metric', 'day', 'key'])
                .doUpdateSet({ total: sql<number>`insight_daily.total + excluded.total` }),
            )
            .execute()
        }
        for (const part of chunks(batch.comments)) {
          await trx
            .insertInto('insight_comments')
            .values(
              part.map((comment) => ({
                id: newId('cmt'),
                project_id: comment.projectId,
                day: comment.day,
                path: comment.path,
                helpful: comment.helpful ? 1 : 0,
                comment: comment.comment,
                created_at: now,
              })),
            )
            .execute()
        }
        for (const part of chunks(batch.visitors)) {
          await trx
            .insertInto('insight_visitors')
            .values(part.map((row) => ({ project_id: row.projectId, day: row.day, visitor: row.visitor })))
            .onConflict((conflict) => conflict.columns(['project_id', 'day', 'visitor']).doNothing())
            .execute()
        }
        // The day's distinct visitors, counted again from the hashes every replica wrote: exact, not summed.
        const days = new Map<string, { projectId: string; day: string }>()
        for (const row of batch.visitors) days.set(`${row.projectId} ${row.day}`, row)
        for (const { projectId, day } of days.values()) {
          const counted = await trx
            .selectFrom('insight_visitors')
            .select((eb) => eb.fn.countAll<number | string>().as('visitors'))
            .where('project_id', '=', projectId)
            .where('day', '=', day)
            .executeTakeFirstOrThrow()
          const total = Number(counted.visitors)
          await trx
            .insertInto('insight_daily')
            .values({ project_id: projectId, day, metric: 'visitors', key: '', total })
            .onConflict((conflict) =>
              conflict.columns(['project_id', 'metric', 'day', 'key']).doUpdateSet({ total }),
            )
            .execute()
        }
      })
    },

    /** A metric's total per day in the range, days without any left out. */
    async perDay(range: InsightRange, metric: string): Promise<{ day: string; total: number }[]> {
      const rows = await db
        .selectFrom('insight_daily')
        .select((eb) => ['day', eb.fn.sum<number | string>('total').as('total')])
        .where('project_id', '=', range.projectId)
        .where('metric', '=', metric)
        .where('day', '>=', range.from)
        .where('day', '<=', range.to)
        .groupBy('day')
        .orderBy('day')
        .execute()
      return rows.map((row) => ({ day: row.day, total: Number(row.total) }))
    },

    /** A metric's keys by their total over the range, largest first (ties by key). */
    async top(range: InsightRange, metric: string, limit: number): Promise<{ key: string; total: number }[]> {
      const rows = await db
        .selectFrom('insight_daily')
        .select((eb) => ['key', eb.fn.sum<number | string>('total').as('total')])
        .where('project_id', '=', range.projectId)
        .where('metric', '=', metric)
        .where('day', '>=', range.from)
        .where('day', '<=', range.to)
        .groupBy('key')
        .orderBy(sql`sum(total)`, 'desc')
        .orderBy('key')
        .limit(limit)
        .execute()
      return rows.map((row) => ({ key: row.key, total: Number(row.total) }))
    },

    /** Feedback comments in the range, newest first. */
    async comments(
      range: InsightRange,
      limit: number,
    ): Promise<{ day: string; path: string; helpful: boolean; comment: string }[]> {
      const rows = await db
        .selectFrom('insight_comments')
        .select(['day', 'path', 'helpful', 'comment'])
        .where('project_id', '=', range.projectId)
        .where('day', '>=', range.from)
        .where('day', '<=', range.to)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute()
      return rows.map((row) => ({ ...row, helpful: Number(row.helpful) === 1 }))
    },

    /** Raw events of a project (tests and support read them; reports read the aggregates). */
    countEvents: async (projectId: string): Promise<number> => {
      const row = await db
        .selectFrom('insight_events')
        .select((eb) => eb.fn.countAll<number | string>().as('events'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow()
      return Number(row.events)
    },

    /** Deletes raw events of days before `day`, and visitor hashes of days before `visitorsBefore`. */
    async prune(eventsBefore: string, visitorsBefore: string): Promise<void> {
      await db.deleteFrom('insight_events').where('day', '<', eventsBefore).execute()
      await db.deleteFrom('insight_visitors').where('day', '<', visitorsBefore).execute()
    },
  }
}
