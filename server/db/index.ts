/**
 * Open the database: better-sqlite3 (WAL) in the data folder by default, PostgreSQL when a URL is
 * given. Both run the same migrations and the same repositories.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { type Driver, Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely'
import type pg from 'pg'
import { lazyPackage } from '../../lib/lazy-package.js'
import type { ServerConfig } from '../config.js'
import { StaticMigrationProvider } from './migrations/index.js'
import type { Database } from './schema.js'

export type DatabaseEngine = 'sqlite' | 'postgres'

export interface OpenDatabase {
  db: Kysely<Database>
  engine: DatabaseEngine
  /** The PostgreSQL schema the tables live in; migrations must name it (see migrateToLatest). */
  schema?: string
}

let postgresClient: typeof pg | undefined
/**
 * The PostgreSQL client package, loaded by a server that uses PostgreSQL rather than by every start
 * (the embedded default never needs it).
 */
export function loadPg(): typeof pg {
  if (!postgresClient) {
    postgresClient = lazyPackage<typeof pg>('pg')()
    // PostgreSQL returns bigint (int8) as a string by default; sizes here fit in a double.
    postgresClient.types.setTypeParser(20, (value) => Number.parseInt(value, 10))
  }
  return postgresClient
}

/**
 * The data folder holds every tenant's sources, sites and (with SQLite) tokens' hashes: only the
 * server's own user may enter it. A folder left 0755 by an older version is tightened as well.
 */
export function createDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  try {
    chmodSync(dataDir, 0o700)
  } catch (error) {
    // A folder someone else owns (a mount point) keeps its mode: its owner chose it.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error
  }
}

/**
 * SQLite's files are the server's alone: the database is created 0600 before SQLite opens it (SQLite
 * gives its -wal and -shm files the database's mode), and files an older version left 0644 are tightened.
 */
function makeSqliteFilesPrivate(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600))
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600)
}

/**
 * An idle pooled connection that PostgreSQL ends (a restart, `pg_terminate_backend`, a network cut)
 * emits 'error' on the pool, which ends the process unless someone listens. The pool drops that
 * connection and opens a fresh one for the next query, so the error is only reported.
 */
const reportToStderr = (error: Error): void => {
  process.stderr.write(`docs-server: a PostgreSQL connection dropped: ${error.message}\n`)
}

export function openDatabase(
  config: Pick<ServerConfig, 'dataDir' | 'databaseUrl' | 'databaseSchema'>,
  options: {
    onConnectionError?: (error: Error) => void
    /**
     * SQLite on a full disk: lock the database for this process alone, so SQLite keeps its WAL index in
     * memory instead of a `-shm` file it could not create or grow there.
     */
    exclusive?: boolean
  } = {},
): OpenDatabase {
  if (config.databaseUrl) {
    const pool = new (loadPg().Pool)({
      connectionString: config.databaseUrl,
      max: 10,
      // A query waiting for a connection while the database is away fails after this instead of hanging.
      connectionTimeoutMillis: 5000,
      ...(config.databaseSchema ? { options: `-c search_path=${config.databaseSchema}` } : {}),
    })
    const onError = options.onConnectionError ?? reportToStderr
    pool.on('error', onError)
    // The pool listens only while a connection is idle; one ended while checked out between two
    // statements (inside a transaction) emits on the client itself.
    pool.on('connect', (client) => {
      client.on('error', (error) => {
        if (client.listenerCount('error') === 1) onError(error)
      })
    })
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      engine: 'postgres',
      ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
    }
  }
  createDataDir(config.dataDir)
  const path = join(config.dataDir, 'docs.sqlite')
  makeSqliteFilesPrivate(path)
  const sqlite = new SqliteDatabase(path)
  // Before any read: it decides whether the WAL index lives in a file or in memory.
  if (options.exclusive) sqlite.pragma('locking_mode = exclusive')
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  return { db: new Kysely<Database>({ dialect: new SqliteDialectKeepingErrors(sqlite) }), engine: 'sqlite' }
}

/**
 * SQLite ends a transaction by itself on some errors (SQLITE_FULL on a full disk, SQLITE_IOERR…); the
 * rollback Kysely then sends threw "cannot rollback - no transaction is active" in place of the error
 * that ended it, so a full disk was a 500 and a build job that could not be taken logged the wrong
 * cause. The rollback is skipped when SQLite has already rolled back.
 */
class SqliteDialectKeepingErrors extends SqliteDialect {
  readonly #sqlite: SqliteDatabase.Database

  constructor(sqlite: SqliteDatabase.Database) {
    super({ database: sqlite })
    this.#sqlite = sqlite
  }

  override createDriver(): Driver {
    const driver = super.createDriver()
    const rollback = driver.rollbackTransaction.bind(driver)
    driver.rollbackTransaction = async (connection) => {
      if (this.#sqlite.inTransaction) await rollback(connection)
    }
    return driver
  }
}

/**
 * Run every pending migration; throws with the failing migration's name. Kysely looks for its
 * bookkeeping tables by name in every schema unless told which one, so on PostgreSQL it must be told:
 * otherwise another schema's tables (another tenant, a parallel test) make it skip creating its own.
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<string[]> {
  return underMigrationLock(db, schema, async () => {
    const { error, results } = await migratorOf(db, schema).migrateToLatest()
    const failed = results?.find((result) => result.status === 'Error')
    if (error) {
      const reason = error instanceof Error ? error.message : String(error)
      throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`, { cause: error })
    }
    return (results ?? []).map((result) => result.migrationName)
  })
}

/** Migrations not yet applied, found without writing anything. */
export async function pendingMigrations(db: Kysely<Database>, schema?: string): Promise<string[]> {
  return underMigrationLock(db, schema, async () =>
    (await migratorOf(db, schema).getMigrations())
      .filter((migration) => migration.executedAt === undefined)
      .map((migration) => migration.name),
  )
}

const migratorOf = (db: Kysely<Database>, schema: string | undefined): Migrator =>
  new Migrator({
    db,
    provider: new StaticMigrationProvider(),
    ...(schema ? { migrationTableSchema: schema } : {}),
  })

/**
 * One PostgreSQL advisory lock for every docs-server migration run on a database, whatever the schema;
 * whatever drops a schema on a shared database (tests do) takes it too.
 */
export const MIGRATION_LOCK_ID = 0x646f6373

/**
 * On PostgreSQL (a schema is named), runs `work` holding a session lock that every replica and tenant
 * sharing the database takes too. Kysely reads the catalogue of every schema before it takes its own
 * lock, and a column another schema's migration drops meanwhile fails that read ("column … does not
 * exist"): seen with parallel test schemas, possible with tenants sharing a database.
 */
export async function underMigrationLock<T>(
  db: Kysely<Database>,
  schema: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (schema === undefined) return work()
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`.execute(connection)
    try {
      return await work()
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.execute(connection)
    }
  })
}

export type { Database } from './schema.js'
