/**
 * The CLI's sign-ins: pending sign-ins, authorization codes and refresh-token families. Codes and
 * refresh tokens are created here and returned once; only their hashes are stored. Every consuming step
 * is a single conditional UPDATE, so two requests racing with the same code or refresh token cannot
 * both win.
 */
import type { Kysely, Selectable } from 'kysely'
import { hashToken, issueToken, newOpaqueId } from '../../tokens.js'
import type { Database, OAuthCodesTable, OAuthRequestsTable, RefreshTokensTable } from '../schema.js'

export type OAuthRequestRow = Selectable<OAuthRequestsTable>
export type OAuthCodeRow = Selectable<OAuthCodesTable>
export type RefreshTokenRow = Selectable<RefreshTokensTable>

/** Why a refresh token was refused; `replayed` means its family has just been revoked. */
export type RefreshRefusal = 'unknown' | 'expired' | 'revoked' | 'replayed'

const later = (now: Date, seconds: number): string => new Date(now.getTime() + seconds * 1000).toISOString()

export function signInsRepository(db: Kysely<Database>) {
  /** Ends a sign-in: every refresh token of the family stops working, and so do its access tokens. */
  const revokeFamily = (familyId: string, now: Date): Promise<void> =>
    db.transaction().execute(async (trx) => {
      await trx
        .updateTable('refresh_tokens')
        .set({ revoked_at: now.toISOString() })
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .execute()
      await trx.deleteFrom('access_tokens').where('family_id', '=', familyId).execute()
    })

  return {
    async createRequest(row: OAuthRequestRow): Promise<void> {
      await db.insertInto('oauth_requests').values(row).execute()
    },

    /** A pending sign-in that has not expired, or undefined. */
    findRequest: (id: string, now: Date): Promise<OAuthRequestRow | undefined> =>
      db
        .selectFrom('oauth_requests')
        .selectAll()
        .where('id', '=', id)
        .where('expires_at', '>', now.toISOString())
        .executeTakeFirst(),

    /** A new anti-forgery token for the sign-in form, replacing an earlier one; only its hash is kept. */
    async issueCsrfToken(requestId: string): Promise<string> {
      const csrfToken = newOpaqueId()
      await db
        .updateTable('oauth_requests')
        .set({ csrf_hash: hashToken(csrfToken) })
        .where('id', '=', requestId)
        .execute()
      return csrfToken
    },

    /** Removes a pending sign-in and reports whether this caller was the one that removed it. */
    async completeRequest(id: string): Promise<boolean> {
      const result = await db.deleteFrom('oauth_requests').where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) === 1
    },

    /**
     * Forgets what can no longer be used. Spent codes are kept a day past expiry so a late replay still
     * revokes what they produced; refresh tokens are kept until they expire, so a replayed rotated one
     * is recognised for as long as it could have worked.
     */
    async deleteExpired(now: Date): Promise<void> {
      const cutoff = now.toISOString()
      const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000).toISOString()
      await db.deleteFrom('oauth_requests').where('expires_at', '<=', cutoff).execute()
      await db.deleteFrom('oauth_codes').where('expires_at', '<=', dayAgo).execute()
      await db.deleteFrom('refresh_tokens').where('expires_at', '<=', cutoff).execute()
    },

    /** A single-use authorization code (`dsc_…`) for the user of a completed sign-in. */
    async issueCode(
      pending: Pick<OAuthRequestRow, 'client_id' | 'redirect_uri' | 'code_challenge'>,
      userId: string,
      ttlSeconds: number,
      now: Date,
    ): Promise<string> {
      const { token, hash } = issueToken('authorizationCode')
      await db
        .insertInto('oauth_codes')
        .values({
          id: newOpaqueId(),
          code_hash: hash,
          user_id: userId,
          client_id: pending.client_id,
          redirect_uri: pending.redirect_uri,
          code_challenge: pending.code_challenge,
          family_id: null,
          used_at: null,
          expires_at: later(now, ttlSeconds),
          created_at: now.toISOString(),
        })
        .execute()
      return token
    },

    /**
     * Marks a code used. Returns the row when this call consumed it, `{reused}` when it had already been
     * redeemed (the caller revokes what it produced), undefined when no such code exists.
     */
    async consumeCode(code: string, now: Date): Promise<OAuthCodeRow | { reused: OAuthCodeRow } | undefined> {
      const codeHash = hashToken(code)
      const consumed = await db
        .updateTable('oauth_codes')
        .set({ used_at: now.toISOString() })
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .returningAll()
        .executeTakeFirst()
      if (consumed) return consumed
      const reused = await db
        .selectFrom('oauth_codes')
        .selectAll()
        .where('code_hash', '=', codeHash)
        .executeTakeFirst()
      return reused ? { reused } : undefined
    },

    async linkCodeToFamily(codeId: string, familyId: string): Promise<void> {
      await db.updateTable('oauth_codes').set({ family_id: familyId }).where('id', '=', codeId).execute()
    },

    /** A refresh token (`dsr_…`) of a sign-in's family. */
    async issueRefreshToken(
      family: Pick<RefreshTokenRow, 'family_id' | 'user_id' | 'client_id'>,
      ttlSeconds: number,
      now: Date,
    ): Promise<string> {
      const { token, hash } = issueToken('refreshToken')
      await db
        .insertInto('refresh_tokens')
        .values({
          id: newOpaqueId(),
          token_hash: hash,
          ...family,
          rotated_at: null,
          revoked_at: null,
          expires_at: later(now, ttlSeconds),
          created_at: now.toISOString(),
        })
        .execute()
      return token
    },

    /**
     * Spends a refresh token: on success returns its row (now rotated). A token that was already rotated
     * is a replay, so its whole family is revoked before refusing.
     */
    async rotateRefreshToken(
      token: string,
      now: Date,
    ): Promise<RefreshTokenRow | { refused: RefreshRefusal }> {
      const at = now.toISOString()
      const tokenHash = hashToken(token)
      const rotated = await db
        .updateTable('refresh_tokens')
        .set({ rotated_at: at })
        .where('token_hash', '=', tokenHash)
        .where('rotated_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', at)
        .returningAll()
        .executeTakeFirst()
      if (rotated) return rotated
      const row = await db
        .selectFrom('refresh_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst()
      if (!row) return { refused: 'unknown' }
      if (row.revoked_at) return { refused: 'revoked' }
      if (row.rotated_at) {
        await revokeFamily(row.family_id, now)
        return { refused: 'replayed' }
      }
      return { refused: 'expired' }
    },

    findRefreshToken: (token: string): Promise<RefreshTokenRow | undefined> =>
      db
        .selectFrom('refresh_tokens')
        .selectAll()
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst(),

    revokeFamily,
  }
}
