/**
 * The OAuth 2.0 authorization server for the CLI (RFC 6749 with PKCE, RFC 7636; native-app rules of
 * RFC 8252): one public client, `docsctl`, redirected to a loopback listener. This module holds the
 * protocol decisions; routes only translate HTTP to these calls, and identity providers only answer
 * "who is this" for a pending sign-in.
 */
import { isCodeVerifier, isS256Challenge, verifyCodeVerifier } from '../../../lib/pkce.js'
import type { Repositories } from '../../db/repositories/index.js'
import type { OAuthRequestRow } from '../../db/repositories/sign-ins.js'
import type { User } from '../../db/repositories/users.js'
import { constantTimeEqual, hashToken, newOpaqueId, tokenPrefixes } from '../../tokens.js'
import { OAuthError } from './errors.js'
import { checkLoopbackRedirectUri, redirectWithParams } from './redirect-uri.js'

export const CLI_CLIENT_ID = 'docsctl'
/** The dashboard on the API host: a second public client, redirected only to its own callback. */
export const DASHBOARD_CLIENT_ID = 'docs-dashboard'

/** The tables sign-in reads and writes, all through the repositories. */
export type SignInRepositories = Pick<Repositories, 'users' | 'accessTokens' | 'signIns'>

export interface AuthorizationServerOptions {
  /** Lifetimes in seconds. */
  accessTokenTtl?: number
  refreshTokenTtl?: number
  codeTtl?: number
  pendingSignInTtl?: number
  now?: () => Date
}

/** A validated /oauth/authorize request, waiting for the user to prove who they are. */
export interface AuthorizationRequest {
  clientId: string
  redirectUri: string
  state: string
  codeChallenge: string
}

/**
 * What /oauth/authorize should do. Per RFC 6749 §4.1.2.1 an invalid client or redirect URI is shown to
 * the user and never redirected (that would make the server an open redirector); other errors go back
 * to the client's redirect URI with `error` and `state`.
 */
export type AuthorizeOutcome =
  | { kind: 'proceed'; request: AuthorizationRequest }
  | { kind: 'show-error'; message: string }
  | { kind: 'redirect-error'; location: string }

export interface TokenResponse {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  refresh_token: string
}

export interface UpstreamHandoff {
  verifier?: string | undefined
  nonce?: string | undefined
}

const one = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

export class AuthorizationServer {
  readonly #repos: SignInRepositories
  readonly #now: () => Date
  readonly accessTokenTtl: number
  readonly refreshTokenTtl: number
  readonly codeTtl: number
  readonly pendingSignInTtl: number

  constructor(repos: SignInRepositories, options: AuthorizationServerOptions = {}) {
    this.#repos = repos
    this.#now = options.now ?? (() => new Date())
    this.accessTokenTtl = options.accessTokenTtl ?? 3600
    this.refreshTokenTtl = options.refreshTokenTtl ?? 30 * 24 * 3600
    this.codeTtl = options.codeTtl ?? 60
    this.pendingSignInTtl = options.pendingSignInTtl ?? 600
  }

  /**
   * Checks the query of GET /oauth/authorize. `dashboardCallback` is the only redirect URI of the
   * dashboard client: its callback on the API origin the request reached.
   */
  checkAuthorizeRequest(query: Record<string, unknown>, dashboardCallback?: string): AuthorizeOutcome {
    const clientId = one(query.client_id)
    if (clientId !== CLI_CLIENT_ID && clientId !== DASHBOARD_CLIENT_ID) {
      return { kind: 'show-error', message: `Unknown client_id; the only client is "${CLI_CLIENT_ID}".` }
    }
    const redirectUri = one(query.redirect_uri)
    if (!redirectUri) return { kind: 'show-error', message: 'Missing redirect_uri.' }
    if (clientId === DASHBOARD_CLIENT_ID) {
      if (redirectUri !== dashboardCallback) {
        return { kind: 'show-error', message: 'Invalid redirect_uri: not the dashboard’s callback.' }
      }
    } else {
      const checked = checkLoopbackRedirectUri(redirectUri)
      if (!checked.ok) return { kind: 'show-error', message: `Invalid redirect_uri: ${checked.reason}.` }
    }

    const state = one(query.state)
    const refuse = (error: string, description: string): AuthorizeOutcome => ({
      kind: 'redirect-error',
      location: redirectWithParams(redirectUri, { error, error_description: description, state }),
    })
    if (one(query.response_type) !== 'code') {
      return refuse('unsupported_response_type', 'response_type must be "code"')
    }
    // The CLI matches `state` against its own copy; without one it could not tell our answer from a forged one.
    if (!state || state.length > 512)
      return refuse('invalid_request', 'state is required (at most 512 characters)')
    if (one(query.code_challenge_method) !== 'S256') {
      return refuse('invalid_request', 'code_challenge_method must be S256')
    }
    const codeChallenge = one(query.code_challenge)
    if (!codeChallenge || !isS256Challenge(codeChallenge)) {
      return refuse('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier')
    }
    return { kind: 'proceed', request: { clientId, redirectUri, state, codeChallenge } }
  }

  /** Records a pending sign-in; its id doubles as the `state` sent to the upstream identity provider. */
  async beginSignIn(
    request: AuthorizationRequest,
    provider: string,
    handoff: UpstreamHandoff = {},
    id: string = newOpaqueId(),
  ): Promise<string> {
    const now = this.#now()
    await this.#repos.signIns.deleteExpired(now)
    const row: OAuthRequestRow = {
      id,
      client_id: request.clientId,
      redirect_uri: request.redirectUri,
      state: request.state,
      code_challenge: request.codeChallenge,
      provider,
      upstream_verifier: handoff.verifier ?? null,
      upstream_nonce: handoff.nonce ?? null,
      csrf_hash: null,
      expires_at: new Date(now.getTime() + this.pendingSignInTtl * 1000).toISOString(),
      created_at: now.toISOString(),
    }
    await this.#repos.signIns.createRequest(row)
    return id
  }

  async findPendingSignIn(id: string): Promise<OAuthRequestRow | undefined> {
    return this.#repos.signIns.findRequest(id, this.#now())
  }

  /** A new anti-forgery token for the sign-in form of a pending sign-in (set as a cookie and a form field). */
  issueCsrfToken(pending: OAuthRequestRow): Promise<string> {
    return this.#repos.signIns.issueCsrfToken(pending.id)
  }

  /** True when the form and the cookie carry the token issued last for this pending sign-in. */
  checkCsrfToken(pending: OAuthRequestRow, fromForm: unknown, fromCookie: string | undefined): boolean {
    if (typeof fromForm !== 'string' || fromCookie === undefined || pending.csrf_hash === null) return false
    return (
      constantTimeEqual(fromForm, fromCookie) && constantTimeEqual(hashToken(fromForm), pending.csrf_hash)
    )
  }

  /**
   * The user proved who they are: ends the pending sign-in, creates the user on first sign-in and sends
   * the browser back to the CLI with a single-use code and the CLI's own `state`.
   */
  async completeSignIn(
    pending: OAuthRequestRow,
    identity: { email: string; name: string | null },
  ): Promise<{ location: string; user: User } | undefined> {
    // Only the first completion counts, so a pending sign-in cannot yield two codes.
    if (!(await this.#repos.signIns.completeRequest(pending.id))) return undefined
    const user = await this.#repos.users.findOrCreate(identity.email, identity.name)
    const code = await this.#repos.signIns.issueCode(pending, user.id, this.codeTtl, this.#now())
    return { location: redirectWithParams(pending.redirect_uri, { code, state: pending.state }), user }
  }

  /** Sends the browser back to the CLI with an error instead of a code (the user declined or failed). */
  async abandonSignIn(pending: OAuthRequestRow, error: string, description: string): Promise<string> {
    await this.#repos.signIns.completeRequest(pending.id)
    return redirectWithParams(pending.redirect_uri, {
      error,
      error_description: description,
      state: pending.state,
    })
  }

  /** POST /oauth/token: dispatches on grant_type. */
  async token(body: Record<string, unknown>): Promise<TokenResponse> {
    const clientId = one(body.client_id)
    const grantType = one(body.grant_type)
    if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required')
    if (grantType === 'authorization_code') {
      if (clientId !== CLI_CLIENT_ID)
        throw new OAuthError('invalid_client', `client_id must be "${CLI_CLIENT_ID}"`)
      return this.#exchangeCode(body)
    }
    if (grantType === 'refresh_token') {
      // client_id is optional on refresh for a public client (RFC 6749 §6), but must be ours when given.
      if (clientId !== undefined && clientId !== CLI_CLIENT_ID) {
        throw new OAuthError('invalid_client', `client_id must be "${CLI_CLIENT_ID}"`)
      }
      return this.#refresh(body)
    }
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token')
  }

  async #exchangeCode(body: Record<string, unknown>): Promise<TokenResponse> {
    const code = one(body.code)
    const redirectUri = one(body.redirect_uri)
    const codeVerifier = one(body.code_verifier)
    if (!code) throw new OAuthError('invalid_request', 'code is required')
    if (!redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required')
    if (!codeVerifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)')
    if (!isCodeVerifier(codeVerifier)) {
      throw new OAuthError(
        'invalid_request',
        'code_verifier must be 43-128 characters of A-Z a-z 0-9 - . _ ~',
      )
    }
    const now = this.#now()
    const consumed = await this.#repos.signIns.consumeCode(code, now)
    if (!consumed) throw new OAuthError('invalid_grant', 'The authorization code is not valid')
    if ('reused' in consumed) {
      // RFC 6749 §4.1.2: a code presented twice may have been stolen; revoke what the first use produced.
      if (consumed.reused.family_id) await this.#repos.signIns.revokeFamily(consumed.reused.family_id, now)
      throw new OAuthError('invalid_grant', 'The authorization code has already been used')
    }
    if (consumed.expires_at <= now.toISOString()) {
      throw new OAuthError('invalid_grant', 'The authorization code has expired; sign in again')
    }
    if (consumed.client_id !== CLI_CLIENT_ID)
      throw new OAuthError('invalid_grant', 'The code was issued to another client')
    if (consumed.redirect_uri !== redirectUri) {
      throw new OAuthError(
        'invalid_grant',
        'redirect_uri does not match the one of the authorization request',
      )
    }
    if (!verifyCodeVerifier(codeVerifier, consumed.code_challenge)) {
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge')
    }
    const user = await this.#repos.users.findById(consumed.user_id)
    if (!user) throw new OAuthError('invalid_grant', 'The account no longer exists')
    const familyId = newOpaqueId()
    await this.#repos.signIns.linkCodeToFamily(consumed.id, familyId)
    return this.#issue(user.id, familyId, now)
  }

  /**
   * The dashboard's side of a code: the same checks as the CLI's exchange, but the answer is the user
   * (for a session cookie) instead of tokens. Codes of one client are never redeemed by the other.
   */
  async redeemDashboardCode(code: string, codeVerifier: string, redirectUri: string): Promise<User> {
    const now = this.#now()
    const consumed = await this.#repos.signIns.consumeCode(code, now)
    if (!consumed || 'reused' in consumed)
      throw new OAuthError('invalid_grant', 'The sign-in code is not valid')
    if (consumed.expires_at <= now.toISOString())
      throw new OAuthError('invalid_grant', 'The sign-in code has expired; sign in again')
    if (consumed.client_id !== DASHBOARD_CLIENT_ID || consumed.redirect_uri !== redirectUri)
      throw new OAuthError('invalid_grant', 'The code was issued to another client')
    if (!verifyCodeVerifier(codeVerifier, consumed.code_challenge))
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge')
    const user = await this.#repos.users.findById(consumed.user_id)
    if (!user) throw new OAuthError('invalid_grant', 'The account no longer exists')
    return user
  }

  async #refresh(body: Record<string, unknown>): Promise<TokenResponse> {
    const refreshToken = one(body.refresh_token)
    if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required')
    if (!refreshToken.startsWith(tokenPrefixes.refreshToken) || refreshToken.length > 256) {
      throw new OAuthError('invalid_grant', 'The refresh token is not valid')
    }
    const now = this.#now()
    const spent = await this.#repos.signIns.rotateRefreshToken(refreshToken, now)
    if ('refused' in spent) {
      const why = {
        unknown: 'The refresh token is not valid',
        expired: 'The refresh token has expired; sign in again',
        revoked: 'The refresh token has been revoked; sign in again',
        replayed: 'The refresh token was already used, so this session has been revoked; sign in again',
      }[spent.refused]
      throw new OAuthError('invalid_grant', why)
    }
    const user = await this.#repos.users.findById(spent.user_id)
    if (!user) throw new OAuthError('invalid_grant', 'The account no longer exists')
    return this.#issue(user.id, spent.family_id, now)
  }

  async #issue(userId: string, familyId: string, now: Date): Promise<TokenResponse> {
    const access = await this.#repos.accessTokens.issue(userId, this.accessTokenTtl, { familyId, now })
    const refreshToken = await this.#repos.signIns.issueRefreshToken(
      { family_id: familyId, user_id: userId, client_id: CLI_CLIENT_ID },
      this.refreshTokenTtl,
      now,
    )
    return {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: this.accessTokenTtl,
      refresh_token: refreshToken,
    }
  }

  /**
   * POST /oauth/revoke (RFC 7009). Revoking a refresh token ends its whole sign-in; revoking an access
   * token ends that token. Unknown tokens are not an error, so the answer reveals nothing.
   */
  async revoke(token: string): Promise<void> {
    const now = this.#now()
    const { signIns, accessTokens } = this.#repos
    if (token.startsWith(tokenPrefixes.refreshToken)) {
      const row = await signIns.findRefreshToken(token)
      if (row) await signIns.revokeFamily(row.family_id, now)
      return
    }
    const access = await accessTokens.findByToken(token)
    if (!access) return
    if (access.family_id) await signIns.revokeFamily(access.family_id, now)
    else await accessTokens.revoke(access.id)
  }
}
