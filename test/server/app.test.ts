/** The app as a plugin: its wiring, the client address behind a proxy, and the data folder's modes. */
import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import Fastify from 'fastify'
import { buildApp, docsApp } from '../../server/app.js'
import { openDatabase } from '../../server/db/index.js'
import { needs } from '../tier.js'
import {
  appWithProject,
  bearer,
  createProject,
  deploy,
  type Engine,
  fixtureSite,
  signIn,
  sqlEngines,
  testApp,
  testConfig,
} from './helper.js'

const key = 'phc_0123456789abcdefghijklmnopqrstuv'

test('docsApp registers into any Fastify instance and shares its decorators and error handling with it', async (t) => {
  const config = await testConfig(t, 'sqlite')
  const app = Fastify()
  t.after(() => app.close())
  await app.register(docsApp, { config })
  assert.equal(app.config, config)
  assert.equal(app.dbEngine, 'sqlite')
  assert.ok(app.repos.users && app.builds && app.sites && app.blobs)
  assert.equal((await app.inject({ url: '/health' })).statusCode, 200)
  // The root's error handler is the app's: an unknown route gets the API's error shape.
  const missing = await app.inject({ url: '/nowhere' })
  assert.equal(missing.statusCode, 404)
  assert.deepEqual(missing.json(), { error: 'No route GET /nowhere' })
})

test('a build reads the project’s analytics settings through the repository', async (t) => {
  const { app, token, project } = await appWithProject(t, 'acme')
  const saved = await app.inject({
    method: 'PUT',
    url: `/projects/${project.id}/analytics`,
    headers: bearer(token),
    payload: { provider: 'posthog', key },
  })
  assert.equal(saved.statusCode, 200)
  const { finalized } = await deploy(app, token, 'acme', await fixtureSite('minimal'))
  assert.equal(finalized.statusCode, 200, finalized.body)
  const page = await app.inject({ url: '/', headers: { host: 'acme.localhost:8080' } })
  assert.equal(page.statusCode, 200)
  assert.match(page.body, new RegExp(key))
})

/**
 * A sign-in form post with a made-up pending sign-in, as a guesser would send, from a client behind the
 * proxy. The local form refuses it (403: it came through a proxy), but the attempt counts all the same.
 */
const bogusSignIn = (app: Awaited<ReturnType<typeof testApp>>, client: string) =>
  app.inject({
    method: 'POST',
    url: '/oauth/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client },
    payload: 'request=made-up&csrf=made-up&email=guess%40example.com',
  })

test('behind a trusted proxy, 30 bogus sign-ins from one client do not lock out another', async (t) => {
  // inject() comes from 127.0.0.1, standing in for the reverse proxy.
  const app = await testApp(t, 'sqlite', { trustProxy: ['127.0.0.1'] })
  for (let attempt = 0; attempt < 30; attempt++) {
    assert.equal((await bogusSignIn(app, '203.0.113.7')).statusCode, 403)
  }
  assert.equal((await bogusSignIn(app, '203.0.113.7')).statusCode, 429, 'the guesser is limited')
  assert.equal((await bogusSignIn(app, '198.51.100.9')).statusCode, 403, 'another client is not')
  // The forwarded address is the one a proxy appended last, not one the client made up before it.
  assert.equal((await bogusSignIn(app, '198.51.100.9, 203.0.113.7')).statusCode, 429)
})

test('without --trust-proxy, X-Forwarded-For is ignored: every forwarded client shares the proxy’s budget', async (t) => {
  const app = await testApp(t)
  for (let attempt = 0; attempt < 30; attempt++) {
    assert.equal((await bogusSignIn(app, `203.0.113.${attempt}`)).statusCode, 403)
  }
  assert.equal((await bogusSignIn(app, '198.51.100.9')).statusCode, 429)
})

const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o777

for (const engine of sqlEngines) {
  describe(`the app's storage (${engine})`, () => {
    test('closing the app lets a running build finish before the database closes', async (t) => {
      // Builds get half the shutdown grace: ten minutes, so a loaded machine finishes the build in it.
      const config = { ...(await testConfig(t, engine)), shutdownGraceSeconds: 1200 }
      const app = await buildApp(config)
      const token = await signIn(app)
      await createProject(app, token, 'closing')
      const { id, finalized } = await deploy(app, token, 'closing', await fixtureSite('minimal'), {
        waitSeconds: 0,
      })
      assert.equal(finalized.statusCode, 202, finalized.body)
      await app.close()
      const { db } = openDatabase(config)
      t.after(() => db.destroy())
      const row = await db
        .selectFrom('deployments')
        .select(['status', 'error'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      assert.deepEqual(row, { status: 'ready', error: null })
    })

    test('is created 0700, even when the database lives elsewhere', async (t) => {
      const config = await testConfig(t, engine)
      const dataDir = join(config.dataDir, 'nested', 'data')
      const app = await buildApp({ ...config, dataDir })
      t.after(() => app.close())
      assert.equal(await modeOf(dataDir), 0o700)
      assert.equal(await modeOf(join(config.dataDir, 'nested')), 0o700)
    })
  })
}

test('SQLite’s database, WAL and shared-memory files are 0600', async (t) => {
  const engine: Engine = 'sqlite'
  const { app } = await appWithProject(t, 'written', engine)
  for (const file of ['docs.sqlite', 'docs.sqlite-wal', 'docs.sqlite-shm']) {
    assert.equal(await modeOf(join(app.config.dataDir, file)), 0o600, file)
  }
})

test('with Redis configured two replicas share one rate limit; without it each counts its own', {
  skip: needs('Redis'),
}, async (t) => {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
  const limited = { rateLimitPerMinute: 3, trustProxy: ['127.0.0.1'] }
  const [first, second] = await Promise.all([
    testApp(t, 'sqlite', { ...limited, redisUrl }),
    testApp(t, 'sqlite', { ...limited, redisUrl }),
  ])
  // A client address of its own, so other runs sharing this Redis never count against it.
  const client = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`
  const statuses: number[] = []
  for (const app of [first, second, first, second]) {
    const response = await app.inject({ url: '/projects/', headers: { 'x-forwarded-for': client } })
    statuses.push(response.statusCode)
  }
  assert.deepEqual(
    statuses,
    [401, 401, 401, 429],
    'the fourth request, on either replica, is over the shared limit',
  )

  const [alone, other] = await Promise.all([testApp(t, 'sqlite', limited), testApp(t, 'sqlite', limited)])
  const separate: number[] = []
  for (const app of [alone, other, alone, other]) {
    const response = await app.inject({ url: '/projects/', headers: { 'x-forwarded-for': client } })
    separate.push(response.statusCode)
  }
  assert.deepEqual(separate, [401, 401, 401, 401], 'per process: two each is under the limit')
})

test("every API answer carries its request id: a proxy's X-Request-Id when sane, else a new UUID", async (t) => {
  const app = await testApp(t)
  const given = await app.inject({ url: '/health', headers: { 'x-request-id': 'lb-4f2a.9' } })
  assert.equal(given.headers['x-request-id'], 'lb-4f2a.9')
  const made = await app.inject({
    url: '/health',
    headers: { 'x-request-id': 'no spaces or <tags> allowed' },
  })
  assert.match(
    String(made.headers['x-request-id']),
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  )
  const failed = await app.inject({ url: '/projects/' })
  assert.equal(failed.statusCode, 401)
  assert.ok(failed.headers['x-request-id'], 'errors carry it too')
})
