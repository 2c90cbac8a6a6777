/**
 * Reader insights (server/insights): raw events kept a few days, daily aggregates kept with the
 * project, feedback comments, and the day's visitor hashes (a hash of a salt that rotates daily, so a
 * visitor is counted once a day and never recognised the next). Nothing here holds an IP address or a
 * user agent. A project can turn insights off (`insight_settings`; no row: on).
 */
import type { Kysely } from 'kysely'
import { deletedWith } from './columns.js'

export type InsightKind = 'view' | 'search' | 'feedback' | 'copy' | 'not-found'

/** One accepted reader event, as received (kept `--insights-keep-days`, then deleted). */
export interface InsightEventsTable {
  id: string
  project_id: string
  /** UTC day, `YYYY-MM-DD`. */
  day: string
  kind: InsightKind
  /** Site path of the page, relative to the site root (`guide/setup/`, `` for the root page). */
  path: string
  /** JSON of the kind's own fields (referrer host, query, results, helpful…). */
  detail: string
  created_at: string
}

/**
 * Counts per project, day, metric and key, added to by every replica (`total = total + excluded.total`).
 * Metrics: `view` (key: path), `referrer` (host), `screen` (class), `search` (query), `search-none`
 * (query with no result), `search-open` (path opened from a search), `helpful` / `not-helpful`
 * (path), `copy` (path), `not-found` (path), `visitors` (key '': distinct visitor hashes that day).
 */
export interface InsightDailyTable {
  project_id: string
  day: string
  metric: string
  key: string
  total: number
}

/** A feedback comment, kept with the aggregates. */
export interface InsightCommentsTable {
  id: string
  project_id: string
  day: string
  path: string
  helpful: number
  comment: string
  created_at: string
}

/** The day's salted visitor hashes: what makes `visitors` exact across replicas; deleted after a day. */
export interface InsightVisitorsTable {
  project_id: string
  day: string
  visitor: string
}

/** A project's choice; a project without a row has insights on. */
export interface InsightSettingsTable {
  project_id: string
  /** 1: reader events are kept; 0: answered 204 and stored nowhere. */
  enabled: number
  updated_at: string
}

declare module '../schema.js' {
  interface Database {
    insight_events: InsightEventsTable
    insight_daily: InsightDailyTable
    insight_comments: InsightCommentsTable
    insight_visitors: InsightVisitorsTable
    insight_settings: InsightSettingsTable
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('insight_settings')
    .addColumn('project_id', 'text', (column) =>
      column.primaryKey().references('projects.id').onDelete('cascade'),
    )
    .addColumn('enabled', 'integer', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createTable('insight_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', deletedWith('projects'))
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('path', 'text', (column) => column.notNull())
    .addColumn('detail', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('insight_events_day').on('insight_events').columns(['day']).execute()
  await db.schema
    .createTable('insight_daily')
    .addColumn('project_id', 'text', deletedWith('projects'))
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('metric', 'text', (column) => column.notNull())
    .addColumn('key', 'text', (column) => column.notNull())
    .addColumn('total', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('insight_daily_pkey', ['project_id', 'metric', 'day', 'key'])
    .execute()
  await db.schema
    .createTable('insight_comments')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', deletedWith('projects'))
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('path', 'text', (column) => column.notNull())
    .addColumn('helpful', 'integer', (column) => column.notNull())
    .addColumn('comment', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('insight_comments_project_day')
    .on('insight_comments')
    .columns(['project_id', 'day'])
    .execute()
  await db.schema
    .createTable('insight_visitors')
    .addColumn('project_id', 'text', deletedWith('projects'))
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('visitor', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('insight_visitors_pkey', ['project_id', 'day', 'visitor'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('insight_visitors').execute()
  await db.schema.dropTable('insight_comments').execute()
  await db.schema.dropTable('insight_daily').execute()
  await db.schema.dropTable('insight_events').execute()
  await db.schema.dropTable('insight_settings').execute()
}
