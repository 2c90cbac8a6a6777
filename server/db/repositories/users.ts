/** Users, identified by e-mail address (lower-cased): sign-in and `docs-server token create` both land here. */
import type { Kysely, Selectable } from 'kysely'
import { newId, nowIso } from '../../ids.js'
import type { Database, UsersTable } from '../schema.js'

export type User = Selectable<UsersTable>

export function usersRepository(db: Kysely<Database>) {
  const byEmail = (email: string): Promise<User | undefined> =>
    db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst()

  return {
    findById: (id: string): Promise<User | undefined> =>
      db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),

    findByEmail: byEmail,

    /** The user with this address, created on first sight; a name given by the identity provider replaces the stored one. */
    async findOrCreate(email: string, name: string | null = null): Promise<User> {
      const existing = await byEmail(email)
      if (existing) {
        if (name === null || name === '' || existing.name === name) return existing
        await db.updateTable('users').set({ name }).where('id', '=', existing.id).execute()
        return { ...existing, name }
      }
      // A concurrent first sign-in with the same address may win the insert; read back whichever row exists.
      await db
        .insertInto('users')
        .values({ id: newId('usr'), email: email.toLowerCase(), name, created_at: nowIso() })
        .onConflict((conflict) => conflict.column('email').doNothing())
        .execute()
      const created = await byEmail(email)
      if (!created) throw new Error(`user ${email} vanished right after it was created`)
      return created
    },
  }
}
