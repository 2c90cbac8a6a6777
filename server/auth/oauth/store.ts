/**
 * The sign-in repository: pending sign-ins, authorization codes and refresh-token families, plus the
 * two server-core tables sign-in writes to (users, access_tokens). Every consuming step is a single
 * conditional UPDATE, so two requests racing with the same code or refresh token cannot both win.
 */
import type { Kysely } from 'kysely'
import type { AccessTokensTable, Database } from '../../db/schema.js'
import type { OAuthCodeRow, OAuthRequestRow, RefreshTokenRow } from './tables.js'

export interface SignedInUser {
  id: string
  email: string
  name: string | null
}

/** Why a refresh token was refused; `replayed` means its family has just been revoked. */
export type RefreshRefusal = 'unknown' | 'expired' | 'revoked' | 'replayed'

export class SignInStore {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  async createRequest(row: OAuthRequestRow): Promise<void> {
    await this.#db.insertInto('oauth_requests').values(row).execute()
  }

  /** A pending sign-in that has not expired, or undefined. */
  async findRequest(id: string, now: Date): Promise<OAuthRequestRow | undefined> {
    return this.#db
      .selectFrom('oauth_requests')
      .selectAll()
      .where('id', '=', id)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst()
  }

  /** Binds the sign-in form's anti-forgery token to the pending sign-in (replacing an earlier one). */
  async setRequestCsrf(id: string, csrfHash: string): Promise<void> {
    await this.#db.updateTable('oauth_requests').set({ csrf_hash: csrfHash }).where('id', '=', id).execute()
  }

  /** Removes a pending sign-in and reports whether this caller was the one that removed it. */
  async completeRequest(id: string): Promise<boolean> {
    const result = await this.#db.deleteFrom('oauth_requests').where('id', '=', id).executeTakeFirst()
    return Number(result.numDeletedRows) === 1
  }

  /**
   * Forgets what can no longer be used. Spent codes are kept a day past expiry so a late replay still
   * revokes what they produced; refresh tokens are kept until they expire, so a replayed rotated one
   * is recognised for as long as it could have worked.
   */
  async deleteExpired(now: Date): Promise<void> {
    const cutoff = now.toISOString()
    const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000).toISOString()
    await this.#db.deleteFrom('oauth_requests').where('expires_at', '<=', cutoff).execute()
    await this.#db.deleteFrom('oauth_codes').where('expires_at', '<=', dayAgo).execute()
    await this.#db.deleteFrom('refresh_tokens').where('expires_at', '<=', cutoff).execute()
  }

  async findOrCreateUser(identity: { email: string; name: string | null }, newId: () => string, now: Date) {
    const email = identity.email.toLowerCase()
    const existing = await this.#db
      .selectFrom('users')
      .select(['id', 'email', 'name'])
      .where('email', '=', email)
      .executeTakeFirst()
    if (existing) {
      if (identity.name && existing.name !== identity.name) {
        await this.#db
          .updateTable('users')
          .set({ name: identity.name })
          .where('id', '=', existing.id)
          .execute()
        return { ...existing, name: identity.name }
      }
      return existing
    }
    const user: SignedInUser = { id: newId(), email, name: identity.name }
    // A concurrent first sign-in with the same email may win the insert; read back whichever row exists.
    await this.#db
      .insertInto('users')
      .values({ ...user, created_at: now.toISOString() })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .execute()
    return this.#db
      .selectFrom('users')
      .select(['id', 'email', 'name'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
  }

  async findUser(id: string): Promise<SignedInUser | undefined> {
    return this.#db
      .selectFrom('users')
      .select(['id', 'email', 'name'])
      .where('id', '=', id)
      .executeTakeFirst()
  }

  async createCode(row: OAuthCodeRow): Promise<void> {
    await this.#db.insertInto('oauth_codes').values(row).execute()
  }

  /**
   * Marks a code used. Returns the row when this call consumed it, `{reused}` when it had already been
   * redeemed (the caller revokes what it produced), undefined when no such code exists.
   */
  async consumeCode(
    codeHash: string,
    now: Date,
  ): Promise<OAuthCodeRow | { reused: OAuthCodeRow } | undefined> {
    const consumed = await this.#db
      .updateTable('oauth_codes')
      .set({ used_at: now.toISOString() })
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
    if (consumed) return consumed
    const reused = await this.#db
      .selectFrom('oauth_codes')
      .selectAll()
      .where('code_hash', '=', codeHash)
      .executeTakeFirst()
    return reused ? { reused } : undefined
  }

  async linkCodeToFamily(codeId: string, familyId: string): Promise<void> {
    await this.#db.updateTable('oauth_codes').set({ family_id: familyId }).where('id', '=', codeId).execute()
  }

  async insertAccessToken(row: AccessTokensTable): Promise<void> {
    await this.#db.insertInto('access_tokens').values(row).execute()
  }

  async insertRefreshToken(row: RefreshTokenRow): Promise<void> {
    await this.#db.insertInto('refresh_tokens').values(row).execute()
  }

  /**
   * Spends a refresh token: on success returns its row (now rotated). A token that was already rotated
   * is a replay, so its whole family is revoked before refusing.
   */
  async rotateRefreshToken(
    tokenHash: string,
    now: Date,
  ): Promise<RefreshTokenRow | { refused: RefreshRefusal }> {
    const at = now.toISOString()
    const rotated = await this.#db
      .updateTable('refresh_tokens')
      .set({ rotated_at: at })
      .where('token_hash', '=', tokenHash)
      .where('rotated_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', at)
      .returningAll()
      .executeTakeFirst()
    if (rotated) return rotated
    const row = await this.#db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst()
    if (!row) return { refused: 'unknown' }
    if (row.revoked_at) return { refused: 'revoked' }
    if (row.rotated_at) {
      await this.revokeFamily(row.family_id, now)
      return { refused: 'replayed' }
    }
    return { refused: 'expired' }
  }

  /** Ends a sign-in: every refresh token of the family stops working, and so do its access tokens. */
  async revokeFamily(familyId: string, now: Date): Promise<void> {
    await this.#db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now.toISOString() })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute()
    await this.#db.deleteFrom('access_tokens').where('family_id', '=', familyId).execute()
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | undefined> {
    return this.#db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst()
  }

  async findAccessToken(tokenHash: string): Promise<AccessTokensTable | undefined> {
    return this.#db
      .selectFrom('access_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst()
  }

  async deleteAccessToken(id: string): Promise<void> {
    await this.#db.deleteFrom('access_tokens').where('id', '=', id).execute()
  }
}
