/**
 * Dashboard sessions (see migration 009). The token is returned once, at sign-in, for the cookie;
 * every lookup goes through its hash, and an expired session is never returned.
 */
import { randomBytes } from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import { newId } from '../../ids.js'
import { hashToken } from '../../tokens.js'
import type { DashboardSessionsTable } from '../migrations/009_dashboard_sessions.js'
import type { Database } from '../schema.js'

export type DashboardSessionRow = Selectable<DashboardSessionsTable>

export interface SessionLifetimes {
  idleSeconds: number
  absoluteSeconds: number
}

const later = (now: Date, seconds: number): string => new Date(now.getTime() + seconds * 1000).toISOString()
const earlier = (a: string, b: string): string => (a < b ? a : b)

export function dashboardSessionsRepository(db: Kysely<Database>) {
  return {
    async create(
      userId: string,
      lifetimes: SessionLifetimes,
      now = new Date(),
    ): Promise<{ token: string; row: DashboardSessionRow }> {
      const token = `dss_${randomBytes(32).toString('base64url')}`
      const expiresAt = later(now, lifetimes.absoluteSeconds)
      const row: DashboardSessionRow = {
        id: newId('ses'),
        token_hash: hashToken(token),
        user_id: userId,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        idle_expires_at: earlier(later(now, lifetimes.idleSeconds), expiresAt),
        expires_at: expiresAt,
      }
      await db.insertInto('dashboard_sessions').values(row).execute()
      await db
        .deleteFrom('dashboard_sessions')
        .where((eb) =>
          eb.or([eb('expires_at', '<=', now.toISOString()), eb('idle_expires_at', '<=', now.toISOString())]),
        )
        .execute()
      return { token, row }
    },

    /** The live session of a cookie's token; its idle expiry moves forward (at most once a minute). */
    async use(
      token: string,
      lifetimes: SessionLifetimes,
      now = new Date(),
    ): Promise<DashboardSessionRow | undefined> {
      const row = await db
        .selectFrom('dashboard_sessions')
        .selectAll()
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst()
      const at = now.toISOString()
      if (!row || row.expires_at <= at || row.idle_expires_at <= at) return undefined
      if (now.getTime() - Date.parse(row.last_seen_at) >= 60_000) {
        const idle = earlier(later(now, lifetimes.idleSeconds), row.expires_at)
        await db
          .updateTable('dashboard_sessions')
          .set({ last_seen_at: at, idle_expires_at: idle })
          .where('id', '=', row.id)
          .execute()
        return { ...row, last_seen_at: at, idle_expires_at: idle }
      }
      return row
    },

    async end(token: string): Promise<void> {
      await db.deleteFrom('dashboard_sessions').where('token_hash', '=', hashToken(token)).execute()
    },
  }
}
