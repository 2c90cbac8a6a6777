/**
 * Change reports and pull/merge request previews. A preview deployment gets one report against the
 * deployment that was live when it was made (its pages, links, warnings, navigation and screenshots);
 * the screenshots are blobs listed beside it so the collector keeps them while the report exists. A
 * Git connection's open requests each have one preview (`pr-<number>--<slug>`), and remember the
 * comment and check run they update in place on the forge.
 */
import type { Kysely } from 'kysely'
import { deletedWith } from './columns.js'

export type ChangeReportStatus = 'ready' | 'failed'

export interface ChangeReportsTable {
  deployment_id: string
  /** The live deployment the preview was compared with; null when the project had none. */
  base_deployment_id: string | null
  status: ChangeReportStatus
  /** JSON: the report as the API shows it, without its URLs (made per request). */
  report: string
  created_at: string
}

export interface ChangeReportImagesTable {
  deployment_id: string
  sha256: string
}

export type PullRequestState = 'open' | 'closed'

export interface GitPullRequestsTable {
  project_id: string
  number: number
  state: PullRequestState
  head_branch: string
  head_sha: string
  from_fork: number
  /** The preview deployment of the head commit, once built. */
  deployment_id: string | null
  /** The one comment (GitHub, Gitea) or note (GitLab) updated in place. */
  comment_id: string | null
  /** The GitHub check run of `check_run_sha`, updated in place while the commit is the head. */
  check_run_id: string | null
  check_run_sha: string | null
  updated_at: string
}

declare module '../schema.js' {
  interface Database {
    change_reports: ChangeReportsTable
    change_report_images: ChangeReportImagesTable
    git_pull_requests: GitPullRequestsTable
  }
}

declare module './008_git.js' {
  interface GitConnectionsTable {
    /** 1: requests from forks get previews (built with no secret of the project); 0 (default): not. */
    build_fork_requests: number
  }
  interface GitDeliveriesTable {
    /** A pull/merge request event: its number, action (`opened`, `synchronize`, `closed`…), fork flag. */
    request_number: number | null
    request_action: string | null
    from_fork: number
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('change_reports')
    .addColumn('deployment_id', 'text', (column) => deletedWith('deployments')(column).primaryKey())
    .addColumn('base_deployment_id', 'text')
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('report', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createTable('change_report_images')
    .addColumn('deployment_id', 'text', deletedWith('deployments'))
    .addColumn('sha256', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('change_report_images_pkey', ['deployment_id', 'sha256'])
    .execute()
  await db.schema
    .createTable('git_pull_requests')
    .addColumn('project_id', 'text', deletedWith('projects'))
    .addColumn('number', 'integer', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('head_branch', 'text', (column) => column.notNull())
    .addColumn('head_sha', 'text', (column) => column.notNull())
    .addColumn('from_fork', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('deployment_id', 'text')
    .addColumn('comment_id', 'text')
    .addColumn('check_run_id', 'text')
    .addColumn('check_run_sha', 'text')
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('git_pull_requests_pkey', ['project_id', 'number'])
    .execute()
  await db.schema
    .alterTable('git_connections')
    .addColumn('build_fork_requests', 'integer', (column) => column.notNull().defaultTo(0))
    .execute()
  await db.schema.alterTable('git_deliveries').addColumn('request_number', 'integer').execute()
  await db.schema.alterTable('git_deliveries').addColumn('request_action', 'text').execute()
  await db.schema
    .alterTable('git_deliveries')
    .addColumn('from_fork', 'integer', (column) => column.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('git_deliveries').dropColumn('from_fork').execute()
  await db.schema.alterTable('git_deliveries').dropColumn('request_action').execute()
  await db.schema.alterTable('git_deliveries').dropColumn('request_number').execute()
  await db.schema.alterTable('git_connections').dropColumn('build_fork_requests').execute()
  await db.schema.dropTable('git_pull_requests').execute()
  await db.schema.dropTable('change_report_images').execute()
  await db.schema.dropTable('change_reports').execute()
}
