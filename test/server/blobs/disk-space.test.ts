/**
 * A server whose data folder's disk is full starts read-only instead of crashing: it serves its sites,
 * reads its API, and refuses every change with a 503 that says why. A full disk is what
 * `--min-free-disk` above the disk's free space looks like to it; on a real one (a 4 MB tmpfs, filled),
 * the server used to stop at start with SQLITE_IOERR_SHMSIZE, unable to create SQLite's `-shm` file.
 */
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { Migrator } from 'kysely'
import { buildApp } from '../../../server/app.js'
import { openDatabase } from '../../../server/db/index.js'
import { migrations, StaticMigrationProvider } from '../../../server/db/migrations/index.js'
import { bearer, createProject, deploy, fixtureSite, signIn, testConfig } from '../helper.js'

const noDisk = 2 ** 40

test('on a full disk the server starts read-only: sites and reads answer, changes get a 503 saying why', async (t) => {
  const config = await testConfig(t, 'sqlite')
  const before = await buildApp(config)
  const token = await signIn(before)
  await createProject(before, token, 'kept')
  const deployed = await deploy(before, token, 'kept', await fixtureSite('minimal'))
  assert.equal(deployed.finalized.statusCode, 200, deployed.finalized.body)
  await before.close()

  const app = await buildApp({ ...config, minFreeDiskMb: noDisk })
  t.after(() => app.close())
  assert.match(app.readOnly ?? '', new RegExp(`has \\d+ MB free, under the ${noDisk} MB it needs`))
  // SQLite keeps its WAL index in memory: no `-shm` file to create on a disk with no room for it.
  assert.equal(existsSync(join(config.dataDir, 'docs.sqlite-shm')), false)

  const site = await app.inject({ url: '/', headers: { host: 'kept.localhost:8080' } })
  assert.equal(site.statusCode, 200)
  const list = await app.inject({ url: '/projects/slug/kept/deployments', headers: bearer(token) })
  assert.equal(list.statusCode, 200)
  assert.equal(list.json().deployments[0].id, deployed.id)

  for (const [method, url, payload] of [
    ['POST', '/projects/slug/kept/deployments', { files: [] }],
    ['POST', '/projects/', { name: 'New', slug: 'new' }],
    ['POST', `/projects/slug/kept/deployments/${deployed.id}/promote`, undefined],
  ] as const) {
    const refused = await app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) })
    assert.equal(refused.statusCode, 503, `${method} ${url}: ${refused.body}`)
    assert.match(
      refused.json().error,
      /^The server is read-only: the disk of its data folder has \d+ MB free, under the \d+ MB it needs \(--min-free-disk\); sites are served, but nothing can be changed until space is freed and the server restarted$/,
    )
    assert.equal(refused.headers['retry-after'], '60')
  }
})

test('read-only, a database that needs migrations stops the start with the reason', async (t) => {
  const config = await testConfig(t, 'sqlite')
  const { db } = openDatabase(config)
  const { error } = await new Migrator({ db, provider: new StaticMigrationProvider() }).migrateTo(
    '009_dashboard_sessions',
  )
  assert.equal(error, undefined)
  await db.destroy()
  // Every migration after 009, by name: the list grows with each new one.
  const pending = Object.keys(migrations).filter((name) => name > '009_dashboard_sessions')
  assert.ok(pending.length >= 2)
  await assert.rejects(buildApp({ ...config, minFreeDiskMb: noDisk }), (error: Error) => {
    assert.match(error.message, /^cannot start read-only: the disk of its data folder has \d+ MB free, /)
    assert.ok(
      error.message.endsWith(
        `and the database needs migrations (${pending.join(', ')}); free some space and start again`,
      ),
      error.message,
    )
    return true
  })
})
