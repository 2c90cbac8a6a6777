/** Whether the database answers at all, for `GET /health`. */
import { type Kysely, sql } from 'kysely'
import type { Database } from '../schema.js'

export function healthRepository(db: Kysely<Database>) {
  return {
    /** Resolves when the database answers a trivial query; rejects with the driver's error otherwise. */
    async ping(): Promise<void> {
      await sql`select 1`.execute(db)
    },
  }
}
