/** Helpers for tests of the database layer: a database stopped at one migration, and rows made through the repositories. */
import type { TestContext } from 'node:test'
import { Migrator } from 'kysely'
import { openDatabase, underMigrationLock } from '../../../server/db/index.js'
import { StaticMigrationProvider } from '../../../server/db/migrations/index.js'
import { createRepositories, type Repositories } from '../../../server/db/repositories/index.js'
import { type Engine, testConfig } from '../helper.js'

/**
 * A fresh database migrated up to and including `migration`, so a test can add rows as they were then.
 * Its migrator takes the migration lock as docs-server does (server/db/index.ts): parallel test schemas
 * share one PostgreSQL database.
 */
export async function databaseAt(t: TestContext, engine: Engine, migration: string) {
  const { db, schema } = openDatabase(await testConfig(t, engine))
  t.after(() => db.destroy())
  const kysely = new Migrator({
    db,
    provider: new StaticMigrationProvider(),
    ...(schema ? { migrationTableSchema: schema } : {}),
  })
  const migrator = {
    migrateTo: (name: string) => underMigrationLock(db, schema, () => kysely.migrateTo(name)),
    migrateToLatest: () => underMigrationLock(db, schema, () => kysely.migrateToLatest()),
  }
  const { error } = await migrator.migrateTo(migration)
  if (error) throw error
  return { db, schema, migrator, repos: createRepositories(db) }
}

/** A user (found or created by `email`) and a new project of theirs; throws when the slug is taken. */
export async function ownerWithProject(repos: Repositories, email: string, slug: string, name: string) {
  const owner = await repos.users.findOrCreate(email)
  const project = await repos.projects.create({ ownerId: owner.id, slug, name, description: null })
  if (!project) throw new Error(`the project slug ${slug} is taken`)
  return { owner, project }
}
