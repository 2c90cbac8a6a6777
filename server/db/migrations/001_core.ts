/** The server's core tables: users, sessions, projects, deployments and their files, keys, hosts. */
import type { Kysely } from 'kysely'
import { createProjectRowsTable, deletedWith } from './columns.js'

// Migrations take Kysely<unknown>: they must not depend on today's row types.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('email', 'text', (column) => column.notNull().unique())
    .addColumn('name', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()

  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('user_id', 'text', deletedWith('users'))
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('family_id', 'text')
    .execute()
  await db.schema.createIndex('access_tokens_user_id').on('access_tokens').column('user_id').execute()

  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner_id', 'text', (column) => column.notNull().references('users.id'))
    .addColumn('slug', 'text', (column) => column.notNull().unique())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('description', 'text')
    .addColumn('deployment_name', 'text')
    .addColumn('live_deployment_id', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('projects_owner_id').on('projects').column('owner_id').execute()

  await createProjectRowsTable(db, 'deployments')
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('branch', 'text', (column) => column.notNull())
    .addColumn('commit_message', 'text')
    .addColumn('environment', 'text')
    .addColumn('file_count', 'integer', (column) => column.notNull())
    .addColumn('total_bytes', 'bigint', (column) => column.notNull())
    .addColumn('diagnostics', 'text', (column) => column.notNull())
    .addColumn('timings', 'text', (column) => column.notNull())
    .addColumn('stats', 'text')
    .addColumn('error', 'text')
    .addColumn('site_manifest_sha256', 'text')
    .addColumn('build_cache_sha256', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('deployments_project_created')
    .on('deployments')
    .columns(['project_id', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('deployment_files')
    .addColumn('deployment_id', 'text', deletedWith('deployments'))
    .addColumn('path', 'text', (column) => column.notNull())
    .addColumn('sha256', 'text', (column) => column.notNull())
    .addColumn('size', 'bigint', (column) => column.notNull())
    .addColumn('received', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('deployment_files_pk', ['deployment_id', 'path'])
    .execute()
  await db.schema.createIndex('deployment_files_sha256').on('deployment_files').column('sha256').execute()

  await db.schema
    .createTable('blobs')
    .addColumn('sha256', 'text', (column) => column.primaryKey())
    .addColumn('size', 'bigint', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()

  await createProjectRowsTable(db, 'deploy_keys')
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('prefix', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute()
  await db.schema.createIndex('deploy_keys_project_id').on('deploy_keys').column('project_id').execute()

  await createSiteHostsTable(db)
}

/** `site_hosts` as this migration made it; 005 replaces it and makes it again on the way down. */
export async function createSiteHostsTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_hosts')
    .addColumn('host', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', deletedWith('projects'))
    .addColumn('path_prefix', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'site_hosts',
    'deploy_keys',
    'blobs',
    'deployment_files',
    'deployments',
    'projects',
    'access_tokens',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
