/**
 * Secrets shared by every replica (migration 012): each is generated once, by whichever replica asks
 * first; the others read that one. Race-safe without a lock: every replica offers its candidate with
 * `INSERT … ON CONFLICT DO NOTHING`, then all read the row that won.
 */
import type { Kysely } from 'kysely'
import { nowIso } from '../../ids.js'
import type { Database } from '../schema.js'

/** `insights-salt-YYYY-MM-DD`: the day's salt of reader-visitor hashes (server/insights/daily-salt.ts). */
export type SharedSecretName = 'git-webhook-key' | `insights-salt-${string}`

export function sharedSecretsRepository(db: Kysely<Database>) {
  /** The stored secret `name`, or undefined when none was stored yet. */
  const find = async (name: SharedSecretName): Promise<string | undefined> => {
    const row = await db
      .selectFrom('shared_secrets')
      .select('value')
      .where('name', '=', name)
      .executeTakeFirst()
    return row?.value
  }
  return {
    find,

    /** Deletes the secrets whose names start with `prefix` and sort before `name` (yesterday's salts). */
    async removeBefore(prefix: string, name: string): Promise<void> {
      await db
        .deleteFrom('shared_secrets')
        .where('name', 'like', `${prefix}%`)
        .where('name', '<', name)
        .execute()
    },

    /** The stored secret `name`; `candidate` is stored and returned when there was none. */
    async findOrStore(name: SharedSecretName, candidate: () => string): Promise<string> {
      const stored = await find(name)
      if (stored !== undefined) return stored
      await db
        .insertInto('shared_secrets')
        .values({ name, value: candidate(), created_at: nowIso() })
        .onConflict((conflict) => conflict.column('name').doNothing())
        .execute()
      const won = await find(name)
      if (won === undefined) throw new Error(`the shared secret ${name} was stored but cannot be read back`)
      return won
    },
  }
}
