/**
 * Row types of the tables of migration 002_oauth, merged into the server's `Database` so that one
 * Kysely instance types every query.
 */

export interface OAuthRequestRow {
  id: string
  client_id: string
  redirect_uri: string
  state: string
  code_challenge: string
  provider: string
  upstream_verifier: string | null
  upstream_nonce: string | null
  csrf_hash: string | null
  expires_at: string
  created_at: string
}

export interface OAuthCodeRow {
  id: string
  code_hash: string
  user_id: string
  client_id: string
  redirect_uri: string
  code_challenge: string
  family_id: string | null
  used_at: string | null
  expires_at: string
  created_at: string
}

export interface RefreshTokenRow {
  id: string
  token_hash: string
  family_id: string
  user_id: string
  client_id: string
  rotated_at: string | null
  revoked_at: string | null
  expires_at: string
  created_at: string
}

declare module '../../db/schema.js' {
  interface Database {
    oauth_requests: OAuthRequestRow
    oauth_codes: OAuthCodeRow
    refresh_tokens: RefreshTokenRow
  }
}
