/**
 * Reader events while the database is away (the shared PostgreSQL behind a relay the test cuts): the
 * site keeps accepting them and serving pages, the batch the database refused stays first, and once it
 * is back every event is counted once.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { needs } from '../../tier.js'
import { bearer, createProject, postgresUrl, signIn, testApp } from '../helper.js'
import { startRelay } from '../relay.js'
import { page, publish } from '../sites/publish.js'

const host = 'acme.docs.test'

const view = (app: FastifyInstance, path: string) =>
  app.inject({
    method: 'POST',
    url: '/_docs/events',
    headers: { host, 'content-type': 'text/plain;charset=UTF-8', 'user-agent': 'reader-a' },
    payload: JSON.stringify({ type: 'view', path, screen: 'desktop' }),
  })

test('during a database outage events are accepted and wait; once it is back each is counted once', {
  skip: needs('PostgreSQL'),
}, async (t) => {
  const relay = await startRelay(t, Number(new URL(postgresUrl).port || 5432))
  const app = await testApp(t, 'postgres', { databaseUrl: relay.url(postgresUrl), baseDomain: 'docs.test' })
  const token = await signIn(app)
  const acme = await createProject(app, token, 'acme')
  await publish(app, 'acme', { 'index.html': page('Home'), 'guide/index.html': page('Guide') })
  const errors: unknown[] = []
  app.insights.batcher.onError = (error) => errors.push(error)
  // The site, its switch and the day's salt are known before the outage, as on a replica serving it.
  assert.equal((await view(app, '')).statusCode, 204)
  await app.insights.batcher.flush()
  assert.equal(app.insights.batcher.waiting, 0)

  await relay.cut()
  for (let index = 0; index < 40; index++)
    assert.equal((await view(app, index % 4 === 0 ? '' : 'guide/')).statusCode, 204)
  assert.equal((await app.inject({ url: '/guide/', headers: { host } })).statusCode, 200)
  for (let attempt = 0; attempt < 3; attempt++) await app.insights.batcher.flush()
  // Each flush tried the first batch once (the replica's own timer may have tried too).
  assert.ok(errors.length >= 3, `${errors.length} refused writes`)
  assert.equal(app.insights.batcher.waiting, 40)
  assert.equal(app.insights.batcher.dropped, 0)

  await relay.restore()
  await app.insights.batcher.flush()
  assert.equal(app.insights.batcher.waiting, 0)
  const report = await app.inject({ url: `/projects/${acme.id}/insights`, headers: bearer(token) })
  assert.equal(report.statusCode, 200, report.body)
  const { pages, days } = report.json() as {
    pages: { key: string; total: number }[]
    days: { views: number }[]
  }
  assert.deepEqual(Object.fromEntries(pages.map((row) => [row.key, row.total])), { '': 11, 'guide/': 30 })
  assert.equal(days.at(-1)?.views, 41)
})
