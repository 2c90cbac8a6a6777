/**
 * CDN purges against a real HTTP server on loopback that checks each provider's documented request
 * shape (Cloudflare purge by tag, Fastly bulk purge by surrogate key, a signed webhook with the site
 * URLs), answers failures first to see the retries, and, through the API, receives the purge of a
 * promotion, a rollback, a domain removal and a project deletion. Purges are jobs in a real database:
 * one in retry when its replica closes is finished by another.
 */
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type TestContext, test } from 'node:test'
import { CdnPurger } from '../../../server/cdn/purger.js'
import type { CdnPurgeTarget } from '../../../server/cdn/settings.js'
import { loadConfig } from '../../../server/config.js'
import { ConfigError } from '../../../server/settings/errors.js'
import { appWithProject, bearer, deploy, fixtureSite, sqlEngines } from '../helper.js'
import { purgeQueue, purgerFor, quiet } from './helpers.js'

/** The purge target that these settings give, read as docs-server reads its environment. */
const readCdnConfig = (values: { cdnPurge?: string; cdnPurgeToken?: string; cdnPurgeApi?: string }) =>
  loadConfig([], {
    DOCS_CDN_PURGE: values.cdnPurge,
    DOCS_CDN_PURGE_TOKEN: values.cdnPurgeToken,
    DOCS_CDN_PURGE_API: values.cdnPurgeApi,
  }).config.cdnPurge

interface Received {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: unknown
}

/** Answers each request with the next status of `statuses` (then 200) and the body `answer` makes. */
async function purgeServer(
  t: TestContext,
  statuses: number[] = [],
  answer: (received: Received) => unknown = () => ({}),
) {
  const received: Received[] = []
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString()
    const entry = {
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body: JSON.parse(raw),
    }
    received.push(Object.assign(entry, { raw }))
    response.setHeader('content-type', 'application/json')
    const status = statuses.shift() ?? 200
    response.writeHead(status)
    response.end(
      JSON.stringify(status === 200 ? answer(entry) : { success: false, errors: [{ message: 'busy' }] }),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received }
}

test('Cloudflare: POST /zones/:zone/purge_cache with a bearer token and at most 30 tags, retried on 5xx', async (t) => {
  const cdn = await purgeServer(t, [503, 429], () => ({
    success: true,
    errors: [],
    messages: [],
    result: { id: 'x' },
  }))
  const target = readCdnConfig({
    cdnPurge: 'cloudflare:023e105f4ecef8ad9ca31a8372d0c353',
    cdnPurgeToken: 'cf-token',
    cdnPurgeApi: `${cdn.url}/client/v4`,
  })
  const { purge } = await purgerFor(t, target)
  const tags = Array.from({ length: 35 }, (_, index) => `deployment-d${index}`)
  assert.equal(await purge(tags, 'gc', ['https://acme.docs.example.com/']), true)
  // 2 failures, then the two batches (one of them after its retries).
  assert.equal(cdn.received.length, 4)
  for (const request of cdn.received) {
    assert.equal(request.method, 'POST')
    assert.equal(request.path, '/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353/purge_cache')
    assert.equal(request.headers.authorization, 'Bearer cf-token')
    assert.match(request.headers['content-type'] ?? '', /^application\/json/)
    assert.deepEqual(Object.keys(request.body as object), ['tags'])
  }
  const batches = cdn.received.slice(-2).map((request) => (request.body as { tags: string[] }).tags)
  assert.deepEqual(batches.flat().sort(), [...tags].sort())
  assert.ok(batches.every((batch) => batch.length <= 30))
})

test('Cloudflare: a 200 with success false or a 403 is not retried and reports failure', async (t) => {
  const cdn = await purgeServer(t, [200, 403], () => ({
    success: false,
    errors: [{ code: 1134, message: 'bad tag' }],
  }))
  const errors: string[] = []
  const log = { ...quiet, error: (details: object) => errors.push(JSON.stringify(details)) }
  const { purge } = await purgerFor(t, { kind: 'cloudflare', zoneId: 'z1', token: 't', api: cdn.url }, log)
  assert.equal(await purge(['project-p1'], 'promote'), false)
  assert.equal(await purge(['project-p1'], 'promote'), false)
  assert.equal(cdn.received.length, 2, 'one attempt each')
  assert.match(errors[0] ?? '', /Cloudflare refused/)
  assert.match(errors[1] ?? '', /HTTP 403/)
})

test('Fastly: POST /service/:id/purge with Fastly-Key and surrogate_keys', async (t) => {
  const cdn = await purgeServer(t, [500], (request) =>
    Object.fromEntries(
      (request.body as { surrogate_keys: string[] }).surrogate_keys.map((key) => [key, `purge-${key}`]),
    ),
  )
  const target = readCdnConfig({
    cdnPurge: 'fastly:SU1Z0isxPaozGVKXdv0eY',
    cdnPurgeToken: 'fastly-key',
    cdnPurgeApi: cdn.url,
  })
  const { purge } = await purgerFor(t, target)
  assert.equal(await purge(['project-prj_1'], 'promote', ['https://acme.docs.example.com/']), true)
  assert.equal(cdn.received.length, 2)
  const request = cdn.received[1]!
  assert.equal(request.path, '/service/SU1Z0isxPaozGVKXdv0eY/purge')
  assert.equal(request.headers['fastly-key'], 'fastly-key')
  assert.equal(request.headers.accept, 'application/json')
  assert.deepEqual(request.body, { surrogate_keys: ['project-prj_1'] })
})

test('webhook: the JSON body is signed with HMAC-SHA256 of the secret; failures give up after the attempts', async (t) => {
  const cdn = await purgeServer(t, [502, 502, 502, 502, 502])
  const { purge } = await purgerFor(t, { kind: 'webhook', url: `${cdn.url}/hooks/purge`, secret: 's3cret' })
  const started = performance.now()
  assert.equal(await purge(['project-p1'], 'domain', ['https://docs.example.com/']), false)
  t.diagnostic(`4 attempts with backoff in ${Math.round(performance.now() - started)} ms`)
  assert.equal(cdn.received.length, 4)
  const request = cdn.received[0]! as Received & { raw: string }
  assert.equal(request.path, '/hooks/purge')
  assert.deepEqual(request.body, {
    event: 'purge',
    reason: 'domain',
    tags: ['project-p1'],
    urls: ['https://docs.example.com/'],
  })
  assert.equal(
    request.headers['x-docs-signature'],
    `sha256=${createHmac('sha256', 's3cret').update(request.raw).digest('hex')}`,
  )
})

test('purge settings: bad targets are refused with what to write', () => {
  const read = readCdnConfig
  assert.deepEqual(read({}), { kind: 'none' })
  for (const [values, message] of [
    [{ cdnPurge: 'akamai:x' }, /expected cloudflare:<zone id>, fastly:<service id>, varnish:<url>/],
    [{ cdnPurge: 'cloudflare:' }, /expected cloudflare:<zone id>/],
    [
      { cdnPurge: 'cloudflare:abc' },
      /--cdn-purge-token \/ DOCS_CDN_PURGE_TOKEN: cloudflare purges need an API token/,
    ],
    [{ cdnPurge: 'webhook:ftp://x' }, /expected an http:\/\/ or https:\/\/ URL/],
  ] as const) {
    assert.throws(
      () => read(values),
      (error: unknown) => error instanceof ConfigError && message.test(error.message),
    )
  }
})

test('promote, rollback, domain removal and project deletion purge the project tag', async (t) => {
  const cdn = await purgeServer(t)
  const { app, token, project } = await appWithProject(t, 'purged-docs', 'sqlite', {
    cdnPurge: { kind: 'webhook', url: `${cdn.url}/purge`, secret: undefined },
  })
  const site = await fixtureSite('minimal')
  const first = await deploy(app, token, 'purged-docs', site)
  assert.equal(first.finalized.statusCode, 200)
  site.set('index.mdx', Buffer.from('# Changed\n'))
  assert.equal((await deploy(app, token, 'purged-docs', site)).finalized.statusCode, 200)
  const rollback = await app.inject({
    method: 'POST',
    url: `/projects/slug/purged-docs/deployments/${first.id}/promote`,
    headers: bearer(token),
  })
  assert.equal(rollback.statusCode, 200)
  const domain = await app.inject({
    method: 'POST',
    url: `/projects/${project.id}/domains`,
    headers: bearer(token),
    payload: { hostname: 'docs.example.com' },
  })
  assert.equal(domain.statusCode, 201, domain.body)
  const removed = await app.inject({
    method: 'DELETE',
    url: `/projects/${project.id}/domains/${(domain.json() as { id: string }).id}`,
    headers: bearer(token),
  })
  assert.equal(removed.statusCode, 204)
  const deleted = await app.inject({
    method: 'DELETE',
    url: `/projects/${project.id}`,
    headers: bearer(token),
  })
  assert.equal(deleted.statusCode, 204)
  await app.cdn.close()
  const siteAddress = `http://purged-docs.${app.config.baseDomain}/`
  assert.deepEqual(
    cdn.received.map((request) => request.body),
    [
      ...['promote', 'promote', 'promote'].map((reason) => ({
        event: 'purge',
        reason,
        tags: [`project-${project.id}`],
        urls: [siteAddress],
      })),
      {
        event: 'purge',
        reason: 'domain',
        tags: [`project-${project.id}`],
        urls: ['https://docs.example.com/'],
      },
      { event: 'purge', reason: 'project-deleted', tags: [`project-${project.id}`], urls: [siteAddress] },
    ],
  )
})

test('one call for "a site changed": the site router forgets the project and the CDN is purged', async (t) => {
  const cdn = await purgeServer(t)
  const { app, token, project } = await appWithProject(t, 'changed-docs', 'sqlite', {
    cdnPurge: { kind: 'webhook', url: `${cdn.url}/purge`, secret: undefined },
  })
  assert.equal(
    (await deploy(app, token, 'changed-docs', await fixtureSite('minimal'))).finalized.statusCode,
    200,
  )
  const host = `changed-docs.${app.config.baseDomain}`
  assert.ok('targets' in (await app.sites.hosts.resolve(host)))
  assert.ok(app.sites.hosts.peek(host), 'the site is cached')
  // A Git preview, a disconnected repository: what used to tell the replicas but never the CDN.
  for (const reason of ['preview', 'git-disconnected'] as const)
    await app.siteChanged.project(project.id, reason)
  assert.equal(app.sites.hosts.peek(host), undefined, 'forgotten')
  await app.siteChanged.deploymentsDeleted([{ id: 'dpl_gone', projectId: project.id }])
  await app.cdn.close()
  const siteAddress = `http://changed-docs.${app.config.baseDomain}/`
  assert.deepEqual(cdn.received.map((request) => request.body).slice(-3), [
    { event: 'purge', reason: 'preview', tags: [`project-${project.id}`], urls: [siteAddress] },
    { event: 'purge', reason: 'git-disconnected', tags: [`project-${project.id}`], urls: [siteAddress] },
    { event: 'purge', reason: 'gc', tags: ['deployment-dpl_gone'], urls: [] },
  ])
})

for (const engine of sqlEngines) {
  test(`a purge in retry when its replica closes is sent by another replica once due (${engine})`, async (t) => {
    const cdn = await purgeServer(t, [503])
    const queue = await purgeQueue(t, engine)
    const target: CdnPurgeTarget = { kind: 'webhook', url: `${cdn.url}/purge`, secret: undefined }
    let now = Date.parse('2026-01-01T00:00:00Z')
    const clock = () => now
    // Replica A: its first send fails, and it closes (or dies) while waiting to try again.
    const waiting: number[] = []
    let closed: Promise<void> | undefined
    const first = new CdnPurger(target, quiet, queue, {
      clock,
      sleep: async (ms, signal) => {
        waiting.push(ms)
        closed = first.close()
        signal.throwIfAborted()
      },
    })
    const queued = await first.purge(['project-p1'], 'promote', ['https://acme.docs.example.com/'])
    assert.equal(await queued.sent, false, 'not sent by the replica that closed')
    await closed
    assert.deepEqual(waiting, [500])
    assert.equal(cdn.received.length, 1)

    // Replica B looks for due purges: nothing before the backoff is over, then it sends it.
    const second = new CdnPurger(target, quiet, queue, { clock })
    t.after(() => second.close())
    await second.drain()
    assert.equal(cdn.received.length, 1, 'not before its backoff')
    now += 500
    await second.drain()
    assert.equal(cdn.received.length, 2)
    assert.deepEqual(cdn.received[1]?.body, {
      event: 'purge',
      reason: 'promote',
      tags: ['project-p1'],
      urls: ['https://acme.docs.example.com/'],
    })
    assert.ok(queued.id)
    const job = await queue.take({ id: queued.id, now: now + 3600_000, leaseMs: 1000 })
    assert.equal(job, undefined, 'done: never sent again')
  })

  test(`a purge whose replica died mid-send is taken again when its lease runs out (${engine})`, async (t) => {
    const cdn = await purgeServer(t)
    const queue = await purgeQueue(t, engine)
    let now = Date.parse('2026-01-01T00:00:00Z')
    const id = await queue.enqueue({ reason: 'gc', tags: ['deployment-d1'], urls: [], now })
    // A replica leased it for a send and was killed before it answered.
    assert.ok(await queue.take({ now, leaseMs: 60_000 }))
    const survivor = new CdnPurger(
      { kind: 'webhook', url: `${cdn.url}/purge`, secret: undefined },
      quiet,
      queue,
      {
        clock: () => now,
      },
    )
    t.after(() => survivor.close())
    await survivor.drain()
    assert.equal(cdn.received.length, 0, 'held while its lease lasts')
    now += 60_001
    await survivor.drain()
    assert.deepEqual(
      cdn.received.map((request) => request.body),
      [{ event: 'purge', reason: 'gc', tags: ['deployment-d1'], urls: [] }],
    )
    assert.equal(await queue.take({ id, now: now + 3600_000, leaseMs: 1000 }), undefined)
  })
}
