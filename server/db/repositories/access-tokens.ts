/**
 * Users' access tokens (`dsa_…`). The token is returned once, at issue; only its hash is stored and
 * every lookup goes through the hash. `family_id` ties a token to the sign-in (refresh-token family)
 * that produced it, so ending the sign-in ends its tokens (see sign-ins.ts).
 */
import type { Kysely, Selectable } from 'kysely'
import { newId } from '../../ids.js'
import { hashToken, issueToken } from '../../tokens.js'
import type { AccessTokensTable, Database } from '../schema.js'

export type AccessTokenRow = Selectable<AccessTokensTable>

export interface IssuedAccessToken {
  id: string
  token: string
  expiresAt: string
}

export function accessTokensRepository(db: Kysely<Database>) {
  return {
    async issue(
      userId: string,
      ttlSeconds: number,
      options: { familyId?: string; now?: Date } = {},
    ): Promise<IssuedAccessToken> {
      const { token, hash } = issueToken('accessToken')
      const now = options.now ?? new Date()
      const row: AccessTokenRow = {
        id: newId('tok'),
        token_hash: hash,
        user_id: userId,
        expires_at: new Date(now.getTime() + ttlSeconds * 1000).toISOString(),
        created_at: now.toISOString(),
        family_id: options.familyId ?? null,
      }
      await db.insertInto('access_tokens').values(row).execute()
      return { id: row.id, token, expiresAt: row.expires_at }
    },

    /** The stored row of a presented token, expired or not (the caller says which it is). */
    findByToken: (token: string): Promise<AccessTokenRow | undefined> =>
      db
        .selectFrom('access_tokens')
        .selectAll()
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst(),

    async revoke(id: string): Promise<void> {
      await db.deleteFrom('access_tokens').where('id', '=', id).execute()
    },
  }
}
