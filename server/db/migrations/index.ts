/**
 * Every migration, in order, registered statically so the compiled server needs no folder scan.
 * Other areas append one import and one entry (keys sort in run order: `NNN_name`).
 */
import type { Migration, MigrationProvider } from 'kysely'
import * as core from './001_core.js'

export const migrations: Record<string, Migration> = {
  '001_core': core,
}

export class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations
  }
}
