/**
 * Tables of the sign-in flow. Every secret column holds a SHA-256 hash, never the secret itself.
 * - oauth_requests: a CLI sign-in in progress, between /oauth/authorize and the identity provider's answer.
 * - oauth_codes: authorization codes, single use and short-lived, bound to the PKCE challenge.
 * - refresh_tokens: one row per issued refresh token; rotating marks the old row, and a family id ties a
 *   sign-in's chain together so that a replayed old token revokes all of it.
 */
import type { Kysely } from 'kysely'
import { deletedWith } from './columns.js'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_requests')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('client_id', 'text', (column) => column.notNull())
    .addColumn('redirect_uri', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('code_challenge', 'text', (column) => column.notNull())
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('upstream_verifier', 'text')
    .addColumn('upstream_nonce', 'text')
    .addColumn('csrf_hash', 'text')
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()

  await db.schema
    .createTable('oauth_codes')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('code_hash', 'text', (column) => column.notNull().unique())
    .addColumn('user_id', 'text', deletedWith('users'))
    .addColumn('client_id', 'text', (column) => column.notNull())
    .addColumn('redirect_uri', 'text', (column) => column.notNull())
    .addColumn('code_challenge', 'text', (column) => column.notNull())
    .addColumn('family_id', 'text')
    .addColumn('used_at', 'text')
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('family_id', 'text', (column) => column.notNull())
    .addColumn('user_id', 'text', deletedWith('users'))
    .addColumn('client_id', 'text', (column) => column.notNull())
    .addColumn('rotated_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('refresh_tokens_family_id').on('refresh_tokens').column('family_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('refresh_tokens').execute()
  await db.schema.dropTable('oauth_codes').execute()
  await db.schema.dropTable('oauth_requests').execute()
}
