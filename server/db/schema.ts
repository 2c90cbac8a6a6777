/**
 * Row types of every table this server's migrations create. Timestamps are ISO-8601 text and ids are
 * text in both engines, so one set of queries runs on SQLite and PostgreSQL. Other areas add their
 * tables to `Database` through declaration merging next to their migration.
 */
export interface UsersTable {
  id: string
  email: string
  name: string | null
  created_at: string
}

export interface AccessTokensTable {
  id: string
  token_hash: string
  user_id: string
  expires_at: string
  created_at: string
  family_id: string | null
}

export interface ProjectsTable {
  id: string
  owner_id: string
  slug: string
  name: string
  description: string | null
  deployment_name: string | null
  live_deployment_id: string | null
  created_at: string
  updated_at: string
}

export type DeploymentStatus = 'uploading' | 'building' | 'ready' | 'failed'

export interface DeploymentsTable {
  id: string
  project_id: string
  status: DeploymentStatus
  branch: string
  commit_message: string | null
  environment: string | null
  file_count: number
  total_bytes: number
  /** JSON: {uploadMs?, buildMs?} */
  timings: string
  /** JSON: {pagesRendered, pagesReused} once built */
  stats: string | null
  error: string | null
  /** Blob holding the built site's manifest (path → sha256, size, type, br, gz). */
  site_manifest_sha256: string | null
  /** Blob holding the compiler's BuildCache, handed to the project's next build. */
  build_cache_sha256: string | null
  created_at: string
  updated_at: string
}

export interface DeploymentFilesTable {
  deployment_id: string
  path: string
  sha256: string
  size: number
  /** 1 once the blob is stored (uploaded now or by an earlier deployment of the project). */
  received: number
}

export interface BlobsTable {
  sha256: string
  size: number
  created_at: string
}

export interface DeployKeysTable {
  id: string
  project_id: string
  name: string
  token_hash: string
  prefix: string
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}

/** Per-project analytics settings (one provider today: PostHog); nothing secret is stored here. */
export interface ProjectAnalyticsTable {
  project_id: string
  provider: 'posthog'
  /** The provider's public project key (phc_…), published in every page of the site. */
  public_key: string
  host: string
  created_at: string
  updated_at: string
}

/** A CLI sign-in in progress, between /oauth/authorize and the identity provider's answer. */
export interface OAuthRequestsTable {
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

/** Authorization codes: single use, short-lived, bound to the PKCE challenge. */
export interface OAuthCodesTable {
  id: string
  code_hash: string
  user_id: string
  client_id: string
  redirect_uri: string
  code_challenge: string
  /** The refresh-token family the code was exchanged for, so a replayed code can revoke it. */
  family_id: string | null
  used_at: string | null
  expires_at: string
  created_at: string
}

/** One row per issued refresh token; a family ties one sign-in's chain of rotations together. */
export interface RefreshTokensTable {
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

export interface Database {
  users: UsersTable
  access_tokens: AccessTokensTable
  projects: ProjectsTable
  deployments: DeploymentsTable
  deployment_files: DeploymentFilesTable
  blobs: BlobsTable
  deploy_keys: DeployKeysTable
  project_analytics: ProjectAnalyticsTable
  oauth_requests: OAuthRequestsTable
  oauth_codes: OAuthCodesTable
  refresh_tokens: RefreshTokensTable
}
