/** Prometheus metrics on the API host: off without a token, refused without the right one, and counting. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DocsMetrics } from '../../../server/ops/metrics.js'
import { createProject, deploy, signIn, testApp } from '../helper.js'

const metricsToken = 'metrics-token-for-tests-0123456789'

test('GET /metrics is a 404 until a token is configured', async (t) => {
  const app = await testApp(t)
  const response = await app.inject({ url: '/metrics' })
  assert.equal(response.statusCode, 404)
  assert.match(response.json().error, /--metrics-token/)
})

test('GET /metrics needs the token and counts requests, site answers, cache hits and the build queue', async (t) => {
  const app = await testApp(t, 'sqlite', { metricsToken })
  const token = await signIn(app)
  await createProject(app, token, 'metered')
  const site = new Map([
    ['docs.json', new TextEncoder().encode(JSON.stringify({ name: 'M', navigation: { pages: ['index'] } }))],
    ['index.mdx', new TextEncoder().encode('---\ntitle: Metered\n---\n\nCounted.\n')],
  ])
  const pushed = await deploy(app, token, 'metered', site)
  assert.equal(pushed.finalized.statusCode, 200, pushed.finalized.body)
  for (const header of [undefined, 'Bearer wrong-token', `Basic ${metricsToken}`]) {
    const refused = await app.inject({ url: '/metrics', headers: header ? { authorization: header } : {} })
    assert.equal(refused.statusCode, 401, header ?? 'no header')
    assert.equal(refused.headers['www-authenticate'], 'Bearer')
  }
  // Site answers through a real socket (inject() skips the server factory, where they are counted).
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  const { request } = await import('node:http')
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      request({ port, host: '127.0.0.1', path, headers: { host: 'metered.localhost:8080' } }, (response) => {
        response.resume().on('end', () => resolve(response.statusCode ?? 0))
      })
        .on('error', reject)
        .end()
    })
  for (let index = 0; index < 3; index++) assert.equal(await get('/'), 200)
  const response = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${metricsToken}` } })
  assert.equal(response.statusCode, 200)
  assert.match(response.headers['content-type'] as string, /^text\/plain/)
  const text = response.body
  assert.match(text, /docs_http_requests_total\{method="POST",route="\/projects\/",status="201"\} 1/)
  assert.match(text, /docs_site_requests_total\{status="200"\} 3/)
  assert.match(text, /# TYPE docs_site_serve_seconds histogram/)
  assert.match(text, /docs_site_serve_seconds_count 3/)
  assert.match(text, /docs_site_serve_seconds_bucket\{le="\+Inf"\} 3/)
  assert.match(text, /docs_site_serve_seconds_bucket\{le="1"\} 3/)
  assert.ok(Number(/docs_site_serve_seconds_sum (\S+)/.exec(text)?.[1]) > 0, 'the latency sum is counted')
  assert.match(text, /docs_site_cache_lookups_total\{result="hit"\} [12]/)
  assert.match(text, /docs_build_queue_jobs\{state="queued"\} 0/)
  assert.match(text, /docs_build_duration_seconds_count\{outcome="ready"\} 1/)
  assert.match(text, /^docs_insight_events_waiting 0$/m)
  assert.match(text, /^docs_insight_events_dropped_total 0$/m)
  assert.doesNotMatch(text, /metered|dpl_|prj_/, 'no ids or slugs as labels')

  // Counts made between scrapes are added once each, whatever the status.
  assert.equal(await get('/no-such-page/'), 404)
  assert.equal(await get('/'), 200)
  const again = (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${metricsToken}` } }))
    .body
  assert.match(again, /docs_site_requests_total\{status="200"\} 4/)
  assert.match(again, /docs_site_requests_total\{status="404"\} 1/)
  assert.match(again, /docs_site_serve_seconds_count 5/)
  assert.match(again, /docs_site_cache_lookups_total\{result="hit"\} [23]/)
})

test('reader events waiting and dropped are read from the batcher at each scrape, the dropped ones added once', async () => {
  const batcher = { waiting: 3, dropped: 2 }
  const metrics = new DocsMetrics(
    async () => ({ queued: 0, leased: 0 }),
    () => 0,
  )
  metrics.watchInsights(batcher)
  const first = await metrics.registry.metrics()
  assert.match(first, /^docs_insight_events_waiting 3$/m)
  assert.match(first, /^docs_insight_events_dropped_total 2$/m)
  batcher.waiting = 0
  batcher.dropped = 5
  const second = await metrics.registry.metrics()
  assert.match(second, /^docs_insight_events_waiting 0$/m)
  assert.match(second, /^docs_insight_events_dropped_total 5$/m)
  assert.match(await metrics.registry.metrics(), /^docs_insight_events_dropped_total 5$/m)
})
