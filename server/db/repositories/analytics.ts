/** A project's analytics settings: one row per provider (PostHog today), upserted and removed whole. */
import type { Kysely } from 'kysely'
import { nowIso } from '../../ids.js'
import type { Database } from '../schema.js'

export interface PosthogSettings {
  key: string
  host: string
}

export function analyticsRepository(db: Kysely<Database>) {
  return {
    /** The PostHog settings of a project, or `undefined` when it has none. */
    async posthogOf(projectId: string): Promise<PosthogSettings | undefined> {
      const row = await db
        .selectFrom('project_analytics')
        .select(['public_key', 'host'])
        .where('project_id', '=', projectId)
        .where('provider', '=', 'posthog')
        .executeTakeFirst()
      return row ? { key: row.public_key, host: row.host } : undefined
    },

    async setPosthog(projectId: string, settings: PosthogSettings): Promise<void> {
      const now = nowIso()
      await db
        .insertInto('project_analytics')
        .values({
          project_id: projectId,
          provider: 'posthog',
          public_key: settings.key,
          host: settings.host,
          created_at: now,
          updated_at: now,
        })
        .onConflict((conflict) =>
          conflict
            .columns(['project_id', 'provider'])
            .doUpdateSet({ public_key: settings.key, host: settings.host, updated_at: now }),
        )
        .execute()
    },

    /** Removes every provider's settings of the project. */
    async remove(projectId: string): Promise<void> {
      await db.deleteFrom('project_analytics').where('project_id', '=', projectId).execute()
    },
  }
}
