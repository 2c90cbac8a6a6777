/** Opening the embedded database: the data folder and SQLite's files are the server's alone. */
import assert from 'node:assert/strict'
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { sql } from 'kysely'
import { migrateToLatest, openDatabase } from '../../../server/db/index.js'

const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o777

async function scratch(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'docs-db-'))
  t.after(() => rm(root, { recursive: true, force: true }))
  return root
}

test('a new data folder is 0700 and the new database 0600, whatever the umask allows', async (t) => {
  const dataDir = join(await scratch(t), 'data')
  const previous = process.umask(0o022)
  try {
    const { db } = openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: undefined })
    t.after(() => db.destroy())
    await migrateToLatest(db)
  } finally {
    process.umask(previous)
  }
  assert.equal(await modeOf(dataDir), 0o700)
  for (const file of ['docs.sqlite', 'docs.sqlite-wal', 'docs.sqlite-shm']) {
    assert.equal(await modeOf(join(dataDir, file)), 0o600, file)
  }
})

test('a data folder and database left readable by an older version are tightened on open', async (t) => {
  const dataDir = join(await scratch(t), 'data')
  await mkdir(dataDir, { mode: 0o755 })
  await chmod(dataDir, 0o755)
  const first = openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: undefined })
  await migrateToLatest(first.db)
  await first.db.destroy()
  await chmod(dataDir, 0o755)
  await chmod(join(dataDir, 'docs.sqlite'), 0o644)
  // A WAL file left behind by a crash, readable by all.
  await writeFile(join(dataDir, 'docs.sqlite-wal'), '', { mode: 0o644 })
  await chmod(join(dataDir, 'docs.sqlite-wal'), 0o644)

  const { db } = openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: undefined })
  t.after(() => db.destroy())
  assert.equal(await modeOf(dataDir), 0o700)
  assert.equal(await modeOf(join(dataDir, 'docs.sqlite')), 0o600)
  assert.equal(await modeOf(join(dataDir, 'docs.sqlite-wal')), 0o600)
  assert.deepEqual(await migrateToLatest(db), [], 'the database itself is intact')
})

test('an error after which SQLite rolled back by itself (a full disk) is the error a transaction throws', async (t) => {
  const dataDir = join(await scratch(t), 'data')
  const { db } = openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: undefined })
  t.after(() => db.destroy())
  await migrateToLatest(db)
  // SQLITE_FULL ends the transaction inside SQLite; a ROLLBACK of the callback's own stands in for it.
  const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await sql`rollback`.execute(trx)
      throw full
    }),
    (error) => error === full,
  )
  // The connection is usable after it.
  assert.equal((await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0]?.one, 1)
})
