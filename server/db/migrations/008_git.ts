/**
 * Git-connected deploys: a project's connection to a repository, the webhook deliveries received
 * (a durable queue: a restart loses none, a delivery id is taken once), the branch-alias preview hosts,
 * and the commit a deployment was built from. Nothing secret is stored: webhook secrets are derived
 * from the server's key (server/git/secrets.ts) and repository tokens are fetched per build.
 */
import type { Kysely } from 'kysely'
import { deletedWith } from './columns.js'

export type GitProvider = 'github' | 'gitlab' | 'gitea'

export interface GitConnectionsTable {
  project_id: string
  provider: GitProvider
  /** http(s) clone URL without credentials, as the user gave it. */
  repository_url: string
  production_branch: string
  /** Relative folder of docs.json in the repository; null: the first of `.`, `docs`, `apps/docs`. */
  docs_directory: string | null
  /** JSON: string[] of branch patterns (`*` matches within a segment, `**` across) that get previews. */
  preview_branches: string
  /** The GitHub App installation that last delivered for this repository (tokens are asked per build). */
  github_installation_id: string | null
  created_at: string
  updated_at: string
}

/** `foreign`: the commit's docs.json names another project; nothing of it is kept or shown. */
export type GitDeliveryStatus =
  | 'queued'
  | 'running'
  | 'deployed'
  | 'failed'
  | 'skipped'
  | 'superseded'
  | 'foreign'

export interface GitDeliveriesTable {
  id: string
  /** `<provider>:<delivery id header>`: unique, so a replayed delivery is refused. */
  delivery_key: string
  project_id: string
  event: string
  branch: string
  /** The pushed commit; the all-zero SHA when the branch was deleted. */
  commit_sha: string
  commit_message: string | null
  commit_author: string | null
  forced: number
  status: GitDeliveryStatus
  deployment_id: string | null
  /** Why it failed or was skipped. */
  detail: string | null
  github_installation_id: string | null
  /** While running: when the runner's claim ends; past it, another replica may run the delivery again. */
  lease_until: string | null
  created_at: string
  updated_at: string
}

export interface GitBranchPreviewsTable {
  project_id: string
  /** DNS label made from the branch name: `<branch_slug>--<project slug>.<base_domain>`. */
  branch_slug: string
  branch: string
  deployment_id: string
  updated_at: string
}

declare module '../schema.js' {
  interface Database {
    git_connections: GitConnectionsTable
    git_deliveries: GitDeliveriesTable
    git_branch_previews: GitBranchPreviewsTable
  }
  interface DeploymentsTable {
    /** The commit a Git-connected deployment was built from; null for `docsctl push`. */
    commit_sha: string | null
    commit_author: string | null
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('git_connections')
    .addColumn('project_id', 'text', (column) => deletedWith('projects')(column).primaryKey())
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('repository_url', 'text', (column) => column.notNull())
    .addColumn('production_branch', 'text', (column) => column.notNull())
    .addColumn('docs_directory', 'text')
    .addColumn('preview_branches', 'text', (column) => column.notNull())
    .addColumn('github_installation_id', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createTable('git_deliveries')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('delivery_key', 'text', (column) => column.notNull().unique())
    .addColumn('project_id', 'text', deletedWith('projects'))
    .addColumn('event', 'text', (column) => column.notNull())
    .addColumn('branch', 'text', (column) => column.notNull())
    .addColumn('commit_sha', 'text', (column) => column.notNull())
    .addColumn('commit_message', 'text')
    .addColumn('commit_author', 'text')
    .addColumn('forced', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('deployment_id', 'text')
    .addColumn('detail', 'text')
    .addColumn('github_installation_id', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('git_deliveries_queue')
    .on('git_deliveries')
    .columns(['status', 'project_id', 'branch'])
    .execute()
  await db.schema
    .createTable('git_branch_previews')
    .addColumn('project_id', 'text', deletedWith('projects'))
    .addColumn('branch_slug', 'text', (column) => column.notNull())
    .addColumn('branch', 'text', (column) => column.notNull())
    .addColumn('deployment_id', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('git_branch_previews_pkey', ['project_id', 'branch_slug'])
    .execute()
  await db.schema.alterTable('deployments').addColumn('commit_sha', 'text').execute()
  await db.schema.alterTable('deployments').addColumn('commit_author', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('deployments').dropColumn('commit_author').execute()
  await db.schema.alterTable('deployments').dropColumn('commit_sha').execute()
  await db.schema.dropTable('git_branch_previews').execute()
  await db.schema.dropTable('git_deliveries').execute()
  await db.schema.dropTable('git_connections').execute()
}
