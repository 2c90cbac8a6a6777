/** A CDN purger on a fresh purge queue, with no real waiting between retries, for the purge tests. */
import type { TestContext } from 'node:test'
import { CdnPurger, type PurgeLog, type PurgerOptions } from '../../../server/cdn/purger.js'
import type { CdnPurgeTarget } from '../../../server/cdn/settings.js'
import { migrateToLatest, openDatabase } from '../../../server/db/index.js'
import { createRepositories } from '../../../server/db/repositories/index.js'
import { type Engine, testConfig } from '../helper.js'

export const quiet: PurgeLog = { info: () => {}, warn: () => {}, error: () => {} }

export const fast: PurgerOptions = { backoffMs: 5, attempts: 4, sleep: async () => {} }

/** The purge queue of a fresh database (SQLite unless told). */
export async function purgeQueue(t: TestContext, engine: Engine = 'sqlite') {
  const { db, schema } = openDatabase(await testConfig(t, engine))
  t.after(() => db.destroy())
  await migrateToLatest(db, schema)
  return createRepositories(db).cdnPurges
}

/** A purger on a fresh queue; `purge` answers whether the CDN accepted the purge in the end. */
export async function purgerFor(t: TestContext, target: CdnPurgeTarget, log: PurgeLog = quiet) {
  const purger = new CdnPurger(target, log, await purgeQueue(t), fast)
  t.after(() => purger.close())
  return {
    purger,
    purge: async (...args: Parameters<CdnPurger['purge']>) => (await purger.purge(...args)).sent,
  }
}
