/**
 * Reader events into `<site>/_docs/events`, on SQLite and PostgreSQL: valid events become exact daily
 * counts in the report (JSON and CSV); forged, oversized and opted-out events are stored nowhere; one
 * project's events never count for another; a custom domain under a prefix collects like the live host.
 */
import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import { Readable } from 'node:stream'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import { needs } from '../../tier.js'
import { verifiedDomain } from '../domains/dns-server.js'
import { bearer, createProject, signIn, sqlEngines, testApp } from '../helper.js'
import { page, publish } from '../sites/publish.js'

const searchIndex = `window.__docsSearchIndex=${JSON.stringify({
  pages: [
    { u: '', t: 'Welcome', h: [], x: '' },
    { u: 'guide/setup/', t: 'Setup guide', h: [], x: '' },
    { u: 'guide/deploy/', t: 'Deploying', h: [], x: '' },
  ],
})};\n`

const site = {
  'index.html': page('Welcome'),
  'guide/setup/index.html': page('Setup guide'),
  'guide/deploy/index.html': page('Deploying'),
  '_search/index.js': searchIndex,
}

const send = (app: FastifyInstance, host: string, event: unknown, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/_docs/events',
    headers: { host, 'content-type': 'text/plain;charset=UTF-8', 'user-agent': 'reader-a', ...headers },
    payload: typeof event === 'string' ? event : JSON.stringify(event),
  })

async function setUp(t: Parameters<typeof testApp>[0], engine: (typeof sqlEngines)[number]) {
  const app = await testApp(t, engine, { baseDomain: 'docs.test' })
  const token = await signIn(app)
  const acme = await createProject(app, token, 'acme')
  const other = await createProject(app, await signIn(app, 'bo@example.com'), 'other')
  await publish(app, 'acme', site)
  await publish(app, 'other', { 'index.html': page('Other'), 'plans/index.html': page('Plans') })
  return { app, token, acme, other }
}

for (const engine of sqlEngines) {
  test(`reader events become exact daily counts (${engine})`, async (t) => {
    const { app, token, acme, other } = await setUp(t, engine)
    const host = 'acme.docs.test'
    const events = [
      { type: 'view', path: '', screen: 'desktop', referrer: 'search.example' },
      { type: 'view', path: 'guide/setup/', screen: 'phone' },
      { type: 'view', path: 'guide/setup/', screen: 'phone' },
      { type: 'search', query: 'Setup ', results: 2, opened: 'guide/setup/' },
      { type: 'search', query: 'kubernetes', results: 0, opened: null },
      { type: 'search', query: 'Kubernetes', results: 0 },
      { type: 'feedback', path: 'guide/setup/', helpful: false, comment: 'Step 3 fails on Windows' },
      { type: 'feedback', path: 'guide/setup/', helpful: true },
      { type: 'copy', path: 'guide/setup/' },
      { type: 'not-found', path: 'guide/setpu/' },
    ]
    for (const event of events) {
      const answer = await send(app, host, event)
      assert.equal(answer.statusCode, 204, answer.body)
      assert.equal(answer.headers['cache-control'], 'no-store')
    }
    // A second reader (another user agent) makes two visitors.
    assert.equal((await send(app, host, events[0], { 'user-agent': 'reader-b' })).statusCode, 204)

    const report = await app.inject({
      url: `/projects/${acme.id}/insights`,
      headers: bearer(token),
    })
    assert.equal(report.statusCode, 200, report.body)
    const body = report.json()
    const today = body.days.at(-1)
    assert.deepEqual(today.views, 4)
    assert.deepEqual(today.visitors, 2)
    // Ties in key order.
    assert.deepEqual(body.pages, [
      { key: '', total: 2 },
      { key: 'guide/setup/', total: 2 },
    ])
    assert.deepEqual(body.referrers, [{ key: 'search.example', total: 2 }])
    assert.deepEqual(body.searches, [
      { key: 'kubernetes', total: 2 },
      { key: 'setup', total: 1 },
    ])
    assert.deepEqual(
      body.searchesWithoutResults.map((row: { key: string }) => row.key),
      ['kubernetes'],
    )
    assert.deepEqual(body.feedback, [{ path: 'guide/setup/', helpful: 1, notHelpful: 1 }])
    assert.equal(body.comments[0].comment, 'Step 3 fails on Windows')
    assert.deepEqual(body.copies, [{ key: 'guide/setup/', total: 1 }])
    assert.deepEqual(body.notFound, [
      { key: 'guide/setpu/', total: 1, redirect: { source: '/guide/setpu/', destination: '/guide/setup/' } },
    ])

    const csv = await app.inject({ url: `/projects/${acme.id}/insights.csv`, headers: bearer(token) })
    assert.equal(csv.statusCode, 200)
    assert.match(csv.headers['content-type'] as string, /^text\/csv/)
    assert.match(csv.body, /^table,key,day,total,detail\r\n/)
    assert.match(
      csv.body,
      /\r\ncomments,guide\/setup\/,\d{4}-\d\d-\d\d,not helpful,Step 3 fails on Windows\r\n/,
    )

    // The other project counts nothing of acme's, and its owner cannot read acme's report.
    const otherToken = await signIn(app, 'bo@example.com')
    const theirs = await app.inject({ url: `/projects/${other.id}/insights`, headers: bearer(otherToken) })
    assert.equal(theirs.json().days.at(-1).views, 0)
    const forbidden = await app.inject({ url: `/projects/${acme.id}/insights`, headers: bearer(otherToken) })
    assert.equal(forbidden.statusCode, 404)
  })

  test(`forged, oversized and opted-out events are stored nowhere (${engine})`, async (t) => {
    const { app, acme, other } = await setUp(t, engine)
    const host = 'acme.docs.test'
    const refused = [
      'not json',
      { type: 'purchase', path: '' },
      { type: 'view', path: 'guide/setup/', screen: 'desktop', ip: '1.2.3.4' },
      { type: 'view', path: 'secret/', screen: 'desktop' },
      // A page of the other project is no page of this one.
      { type: 'view', path: 'plans/', screen: 'desktop' },
      { type: 'feedback', path: '', helpful: true, comment: 'x'.repeat(1001) },
      { type: 'view', path: '', screen: 'desktop', referrer: 'x'.repeat(3000) },
      { type: 'not-found', path: 'guide/setup/' },
      // U+0000, which PostgreSQL's text refuses: one such event would have its whole batch refused, every try.
      { type: 'search', query: 'setup\u0000', results: 0 },
      { type: 'not-found', path: 'guide/\u0000/' },
      { type: 'feedback', path: '', helpful: true, comment: 'fine\u0000' },
    ]
    for (const event of refused) {
      const answer = await send(app, host, event)
      assert.equal(answer.statusCode, 400, `${JSON.stringify(event).slice(0, 80)}: ${answer.body}`)
      assert.ok(typeof answer.json().error === 'string')
    }
    const view = { type: 'view', path: '', screen: 'desktop' }
    for (const optOut of [{ dnt: '1' }, { 'sec-gpc': '1' }])
      assert.equal((await send(app, host, view, optOut)).statusCode, 204)
    const get = await app.inject({ url: '/_docs/events', headers: { host } })
    assert.equal(get.statusCode, 405)
    assert.equal(get.headers['cache-control'], 'no-store')
    // Turned off: accepted politely, kept nowhere.
    const token = await signIn(app)
    const off = await app.inject({
      method: 'PUT',
      url: `/projects/${acme.id}/insights/settings`,
      headers: bearer(token),
      payload: { enabled: false },
    })
    assert.equal(off.statusCode, 200)
    assert.equal((await send(app, host, view)).statusCode, 204)
    await app.insights.batcher.flush()
    assert.equal(await app.repos.insights.countEvents(acme.id), 0)
    assert.equal(await app.repos.insights.countEvents(other.id), 0)
    const report = await app.inject({ url: `/projects/${acme.id}/insights`, headers: bearer(token) })
    assert.equal(report.json().enabled, false)
    assert.equal(report.json().days.at(-1).views, 0)
    const badRange = await app.inject({
      url: `/projects/${acme.id}/insights?from=2026-02-30`,
      headers: bearer(token),
    })
    assert.equal(badRange.statusCode, 400)
  })
}

test('a custom domain under a path prefix collects for its project', async (t) => {
  const { app, token, acme } = await setUp(t, 'sqlite')
  await verifiedDomain(app.repos, 'acme', 'example.org', '/docs')
  const answer = await app.inject({
    method: 'POST',
    url: '/docs/_docs/events',
    headers: { host: 'example.org' },
    payload: JSON.stringify({ type: 'view', path: 'guide/deploy/', screen: 'tablet' }),
  })
  assert.equal(answer.statusCode, 204, answer.body)
  const report = await app.inject({ url: `/projects/${acme.id}/insights`, headers: bearer(token) })
  assert.deepEqual(report.json().pages, [{ key: 'guide/deploy/', total: 1 }])
})

test('with Redis configured, the per-client event limit is counted there, shared by every replica', {
  skip: needs('Redis'),
}, async (t) => {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
  const app = await testApp(t, 'sqlite', {
    baseDomain: 'docs.test',
    redisUrl,
    insightsRateLimitPerMinute: 2,
    trustProxy: ['127.0.0.1'],
  })
  await createProject(app, await signIn(app), 'acme')
  await publish(app, 'acme', site)
  await app.ready()
  // A client address of its own, so other runs sharing this Redis never count against it.
  const client = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`
  const view = { type: 'view', path: 'guide/setup/', screen: 'desktop' }
  const statuses = []
  for (let event = 0; event < 3; event++)
    statuses.push((await send(app, 'acme.docs.test', view, { 'x-forwarded-for': client })).statusCode)
  assert.deepEqual(statuses, [204, 204, 429])
  const redis = new Redis(redisUrl)
  t.after(() => redis.quit())
  const keys = await redis.keys(`docs-rate-limit:insights:${client}:*`)
  assert.equal(keys.length, 1)
  assert.equal(await redis.get(keys[0] ?? ''), '3')
})

test('an event body sent in chunks without a length is refused past the limit, and one within it is kept', async (t) => {
  const { app, acme } = await setUp(t, 'sqlite')
  const host = 'acme.docs.test'
  const chunked = (text: string) =>
    app.inject({
      method: 'POST',
      url: '/_docs/events',
      headers: { host, 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
      // Three chunks, so the body arrives in pieces, as a slow client's would.
      payload: Readable.from(
        [text.slice(0, 10), text.slice(10, 20), text.slice(20)].map((part) => Buffer.from(part)),
      ),
    })
  const big = await chunked(
    JSON.stringify({ type: 'view', path: '', screen: 'desktop', referrer: 'x'.repeat(3000) }),
  )
  assert.equal(big.statusCode, 400)
  assert.match(big.json().error, /larger than 2048 bytes/)
  const small = await chunked(JSON.stringify({ type: 'copy', path: '' }))
  assert.equal(small.statusCode, 204, small.body)
  await app.insights.batcher.flush()
  assert.equal(await app.repos.insights.countEvents(acme.id), 1)
})
