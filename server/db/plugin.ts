/**
 * The database as a named plugin: opens it, runs pending migrations, and decorates the instance with
 * `db`, `dbEngine` and `repos` for every plugin registered after it. Registered first, so its onClose
 * runs last (Fastify closes in reverse order), after the plugins that still write.
 */

import fp from 'fastify-plugin'
import type { Kysely } from 'kysely'
import type { ServerConfig } from '../config.js'
import { type DatabaseEngine, migrateToLatest, openDatabase } from './index.js'
import { createRepositories, type Repositories } from './repositories/index.js'
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
}

export const database = fp<DatabaseOptions>(
  async (app, { config }) => {
    const { db, engine, schema } = openDatabase(config, {
      onConnectionError: (error) =>
        app.log.warn({ err: error }, 'a PostgreSQL connection dropped; the next query opens a new one'),
    })
    try {
      await migrateToLatest(db, schema)
    } catch (error) {
      await db.destroy()
      throw error
    }
    app.addHook('onClose', () => db.destroy())
    app.decorate('db', db)
    app.decorate('dbEngine', engine)
    app.decorate('repos', createRepositories(db))
  },
  { name: 'database' },
)
