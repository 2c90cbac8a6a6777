/**
 * Sites while a dependency is away (a real s3rver, the shared PostgreSQL, each behind a relay the test
 * cuts): what the replica holds is served; what it must fetch answers 503 with `Retry-After` and a body
 * naming the dependency that failed, never a bare 500, and an S3 outage is never called the database's.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { needs } from '../../tier.js'
import { startS3Server } from '../blobs/s3-server.js'
import { bearer, createProject, postgresUrl, signIn, testApp } from '../helper.js'
import { startRelay } from '../relay.js'
import { page, publish } from './publish.js'

const get = (app: FastifyInstance, slug: string, url = '/') =>
  app.inject({ url, headers: { host: `${slug}.localhost:8080` } })

test('during an S3 outage a page not read yet answers 503 naming the blob store; pages read keep serving', async (t) => {
  const s3 = await startS3Server(t)
  const relay = await startRelay(t, Number(new URL(s3.endpoint).port))
  const app = await testApp(t, 'sqlite', {
    blobStore: { ...s3.blobStore('sites'), endpoint: `http://127.0.0.1:${relay.port}` },
  })
  const token = await signIn(app)
  await createProject(app, token, 'acme')
  await publish(app, 'acme', { 'index.html': page('Home'), 'guide/index.html': page('Guide') })
  assert.equal((await get(app, 'acme')).statusCode, 200)

  await relay.cut()
  assert.equal((await get(app, 'acme')).statusCode, 200, 'a page it holds is served')
  const unread = await get(app, 'acme', '/guide/')
  assert.equal(unread.statusCode, 503, unread.body)
  assert.equal(unread.headers['retry-after'], '5')
  assert.equal(unread.headers['cache-control'], 'no-store')
  assert.match(unread.body, /^The blob store is unreachable \(ECONNREFUSED on connect\); retry shortly\n$/)
  assert.doesNotMatch(unread.body, /database/)

  await relay.restore()
  assert.equal((await get(app, 'acme', '/guide/')).statusCode, 200, 'served again once S3 answers')
})

test('during a database outage a site not resolved yet answers 503 naming the database', {
  skip: needs('PostgreSQL'),
}, async (t) => {
  const relay = await startRelay(t, Number(new URL(postgresUrl).port || 5432))
  const app = await testApp(t, 'postgres', { databaseUrl: relay.url(postgresUrl) })
  const token = await signIn(app)
  for (const slug of ['acme', 'other']) {
    await createProject(app, token, slug)
    await publish(app, slug, { 'index.html': page(slug) })
  }
  assert.equal((await get(app, 'acme')).statusCode, 200)

  await relay.cut()
  assert.equal((await get(app, 'acme')).statusCode, 200, 'a site it holds is served')
  const unresolved = await get(app, 'other')
  assert.equal(unresolved.statusCode, 503, unresolved.body)
  assert.equal(unresolved.headers['retry-after'], '5')
  assert.equal(unresolved.body, 'The database is unreachable; retry shortly\n')
  const api = await app.inject({ url: '/projects/slug/other/deployments', headers: bearer(token) })
  assert.equal(api.statusCode, 503, api.body)
  assert.deepEqual(api.json(), { error: 'The database is unreachable; retry shortly' })

  await relay.restore()
  // A pooled connection the outage reset fails its next query once (the pool then drops it).
  const after = [(await get(app, 'other')).statusCode, (await get(app, 'other')).statusCode]
  assert.equal(after.at(-1), 200, `served again once the database answers (${after.join(', ')})`)
})
