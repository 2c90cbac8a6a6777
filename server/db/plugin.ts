/**
 * The database as a named plugin: opens it, runs pending migrations, and decorates the instance with
 * `db`, `dbEngine` and `repos` for every plugin registered after it. Registered first, so its onClose
 * runs last (Fastify closes in reverse order), after the plugins that still write.
 */

import fp from 'fastify-plugin'
import type { Kysely } from 'kysely'
import type { ServerConfig } from '../config.js'
import { type DatabaseEngine, migrateToLatest, openDatabase, pendingMigrations } from './index.js'
import { createRepositories, type Repositories } from './repositories/index.js'
import { isDatabaseUnavailable } from './retry.js'
import type { Database } from './schema.js'

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>
    dbEngine: DatabaseEngine
    repos: Repositories
  }
}

export interface DatabaseOptions {
  config: Pick<ServerConfig, 'dataDir' | 'databaseUrl' | 'databaseSchema'>
  /** Why the server starts read-only (its disk is full): nothing is migrated, SQLite is opened exclusive. */
  readOnly?: string | undefined
}

export const database = fp<DatabaseOptions>(
  async (app, { config, readOnly }) => {
    const { db, engine, schema } = openDatabase(config, {
      onConnectionError: (error) =>
        app.log.warn({ err: error }, 'a PostgreSQL connection dropped; the next query opens a new one'),
      exclusive: readOnly !== undefined,
    })
    try {
      if (readOnly === undefined) await migrateToLatest(db, schema)
      else {
        const pending = await pendingMigrations(db, schema)
        if (pending.length > 0)
          throw new Error(
            `cannot start read-only: ${readOnly}, and the database needs migrations (${pending.join(', ')}); free some space and start again`,
          )
      }
    } catch (error) {
      await db.destroy()
      const cause = error instanceof Error && error.cause !== undefined ? error.cause : error
      if (engine === 'postgres' && isDatabaseUnavailable(cause))
        throw new Error(
          `cannot reach the database at ${databaseAddress(config.databaseUrl)}: ${cause instanceof Error ? cause.message : String(cause)}`,
        )
      throw error
    }
    app.addHook('onClose', () => db.destroy())
    app.decorate('db', db)
    app.decorate('dbEngine', engine)
    app.decorate('repos', createRepositories(db))
  },
  { name: 'database' },
)

/** Host, port and database of a postgres:// URL, without its credentials. */
function databaseAddress(url: string | undefined): string {
  if (!url) return 'DATABASE_URL'
  try {
    const parsed = new URL(url)
    return `${parsed.host}${parsed.pathname}`
  } catch {
    return 'DATABASE_URL'
  }
}
