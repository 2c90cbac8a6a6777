/**
 * Sessions of the dashboard: a browser signed in on the API host. The cookie holds a random token;
 * only its SHA-256 hash is stored, so a database leak gives no usable session. A session ends at its
 * idle expiry (pushed forward while it is used) or its absolute expiry, whichever comes first.
 */
import type { Kysely } from 'kysely'

export interface DashboardSessionsTable {
  id: string
  token_hash: string
  user_id: string
  created_at: string
  last_seen_at: string
  /** Pushed forward on use, never past `expires_at`. */
  idle_expires_at: string
  /** Fixed at sign-in. */
  expires_at: string
}

declare module '../schema.js' {
  interface Database {
    dashboard_sessions: DashboardSessionsTable
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_seen_at', 'text', (column) => column.notNull())
    .addColumn('idle_expires_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('dashboard_sessions_user').on('dashboard_sessions').column('user_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dashboard_sessions').execute()
}
