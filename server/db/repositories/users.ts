import type { Kysely, Selectable } from 'kysely'
import { issueToken, userTokenPrefix } from '../../auth/tokens.js'
import { newId, nowIso } from '../../ids.js'
import type { Database, UsersTable } from '../schema.js'

export type User = Selectable<UsersTable>

export function usersRepository(db: Kysely<Database>) {
  return {
    findById: (id: string): Promise<User | undefined> =>
      db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),

    findByEmail: (email: string): Promise<User | undefined> =>
      db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst(),

    /** Sign-in and `token create` both land here: the e-mail address is the identity. */
    async findOrCreate(email: string, name: string | null = null): Promise<User> {
      const normalized = email.toLowerCase()
      const existing = await db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', normalized)
        .executeTakeFirst()
      if (existing) return existing
      const user: User = { id: newId('usr'), email: normalized, name, created_at: nowIso() }
      await db
        .insertInto('users')
        .values(user)
        .onConflict((conflict) => conflict.column('email').doNothing())
        .execute()
      return db.selectFrom('users').selectAll().where('email', '=', normalized).executeTakeFirstOrThrow()
    },
  }
}

export function accessTokensRepository(db: Kysely<Database>) {
  return {
    /** A new session token for a user; `familyId` ties it to a refresh-token family (sign-in). */
    async issue(userId: string, ttlSeconds: number, familyId: string | null = null) {
      const { token, hash } = issueToken(userTokenPrefix)
      const now = new Date()
      const expiresAt = new Date(now.getTime() + ttlSeconds * 1000).toISOString()
      await db
        .insertInto('access_tokens')
        .values({
          id: newId('tok'),
          token_hash: hash,
          user_id: userId,
          expires_at: expiresAt,
          created_at: now.toISOString(),
          family_id: familyId,
        })
        .execute()
      return { token, expiresAt }
    },

    findByHash: (hash: string) =>
      db.selectFrom('access_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst(),

    revokeByHash: async (hash: string): Promise<void> => {
      await db.deleteFrom('access_tokens').where('token_hash', '=', hash).execute()
    },

    revokeFamily: async (familyId: string): Promise<void> => {
      await db.deleteFrom('access_tokens').where('family_id', '=', familyId).execute()
    },
  }
}
