/**
 * Custom domains against a real DNS server on loopback (dns2), the resolver pointed at it: verify
 * before the records exist, with a wrong value, with the right one; grace then stop when the TXT record
 * goes; a lookup that times out; two projects on one host; another user's claim; delete; expiry; a
 * takeover of an unverified claim by whoever proves the name; the limit on unverified claims.
 */
import assert from 'node:assert/strict'
import { type TestContext, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { defaultConfig, type ServerConfig } from '../../../server/config.js'
import { startTestDnsServer, type TestDnsServer } from '../domains/dns-server.js'
import {
  appWithProject,
  bearer,
  createProject,
  deploy,
  type Engine,
  engines,
  fixtureSite,
  signIn,
  testApp,
} from '../helper.js'

interface DomainBody {
  id: string
  hostname: string
  pathPrefix: string
  status: string
  serving: boolean
  records: { type: string; name: string; value: string; purpose: string; use: string; status: string }[]
  failure: { reason: string; message: string } | null
  graceEndsAt: string | null
  expiresAt: string | null
  verifiedAt: string | null
  lastCheckedAt: string | null
}

const day = 24 * 3600 * 1000

/** A DNS server on loopback for one test, and domain settings that ask it. */
async function testDns(t: TestContext, settings: Partial<ServerConfig['domains']>) {
  const dns = await startTestDnsServer()
  t.after(() => dns.close())
  return { dns, domains: { ...defaultConfig().domains, dnsResolver: dns.address, ...settings } }
}

async function world(t: TestContext, dnsTimeoutMs = 400, engine: Engine = 'sqlite') {
  const { dns, domains } = await testDns(t, { dnsTimeoutMs, recheckSeconds: 0 })
  const {
    app,
    token: owner,
    project,
  } = await appWithProject(t, 'acme', engine, {
    domains,
    rateLimitPerMinute: 100_000,
  })
  const built = await deploy(app, owner, 'acme', await fixtureSite('minimal'))
  assert.equal(built.finalized.statusCode, 200, built.finalized.body)
  return { app, dns, owner, project }
}

const add = (app: FastifyInstance, token: string, projectId: string, payload: object) =>
  app.inject({ method: 'POST', url: `/projects/${projectId}/domains`, headers: bearer(token), payload })

async function added(app: FastifyInstance, token: string, projectId: string, payload: object) {
  const response = await add(app, token, projectId, payload)
  assert.equal(response.statusCode, 201, response.body)
  return response.json<DomainBody>()
}

async function verify(app: FastifyInstance, token: string, projectId: string, id: string) {
  const response = await app.inject({
    method: 'POST',
    url: `/projects/${projectId}/domains/${id}/verify`,
    headers: bearer(token),
  })
  assert.equal(response.statusCode, 200, response.body)
  return response.json<DomainBody>()
}

const page = (app: FastifyInstance, host: string, url: string) =>
  app.inject({ method: 'GET', url, headers: { host } })

/** Publish the records a domain asks for, the way its owner would in a DNS console. */
function publish(dns: TestDnsServer, domain: DomainBody, txtValues?: string[]) {
  for (const record of domain.records) {
    if (record.type === 'TXT') dns.set(record.name, 'TXT', txtValues ?? [record.value])
    if (record.type === 'CNAME') dns.set(record.name, 'CNAME', [record.value])
  }
}

for (const engine of engines)
  test(`verify: before the records exist, with a wrong value, with the right one; then served at the prefix (${engine})`, async (t) => {
    const { app, dns, owner, project } = await world(t, 400, engine)
    const domain = await added(app, owner, project.id, { hostname: 'Docs.Example.TEST', pathPrefix: '/docs' })
    assert.equal(domain.hostname, 'docs.example.test')
    assert.equal(domain.pathPrefix, '/docs')
    assert.equal(domain.status, 'pending')
    assert.equal(domain.verifiedAt, null)
    assert.equal(domain.lastCheckedAt, null)
    assert.equal(domain.failure, null)
    assert.ok(domain.expiresAt)
    const txt = domain.records.find((record) => record.type === 'TXT')
    assert.equal(txt?.name, '_docs-challenge.docs.example.test')
    assert.match(txt?.value ?? '', /^docs-verify=[0-9a-f]{40}$/)
    assert.deepEqual(
      domain.records.find((record) => record.type === 'CNAME'),
      {
        type: 'CNAME',
        name: 'docs.example.test',
        value: 'acme.localhost',
        purpose: 'routing',
        use: 'always',
        status: 'unchecked',
      },
    )
    assert.equal(
      (await page(app, 'docs.example.test', '/docs/')).statusCode,
      404,
      'nothing before verification',
    )

    const missing = await verify(app, owner, project.id, domain.id)
    assert.equal(missing.status, 'failed')
    assert.equal(missing.failure?.reason, 'record_missing')
    assert.match(missing.failure?.message ?? '', /no TXT record at _docs-challenge\.docs\.example\.test/i)
    assert.ok(missing.lastCheckedAt)

    publish(dns, domain, ['docs-verify=someone-elses-value'])
    const wrong = await verify(app, owner, project.id, domain.id)
    assert.equal(wrong.status, 'failed')
    assert.equal(wrong.failure?.reason, 'wrong_value')
    assert.equal(wrong.records.find((record) => record.type === 'TXT')?.status, 'wrong_value')
    assert.equal(wrong.records.find((record) => record.type === 'CNAME')?.status, 'ok')

    // The right TXT value (beside an unrelated one), but the host points at another service.
    publish(dns, domain, ['v=spf1 -all', txt!.value])
    dns.set('docs.example.test', 'CNAME', ['docs.elsewhere.example'])
    const elsewhere = await verify(app, owner, project.id, domain.id)
    assert.equal(elsewhere.failure?.reason, 'points_elsewhere')
    assert.match(
      elsewhere.failure?.message ?? '',
      /points at docs\.elsewhere\.example, not at acme\.localhost/,
    )

    publish(dns, domain, ['v=spf1 -all', txt!.value])
    const verified = await verify(app, owner, project.id, domain.id)
    assert.equal(verified.status, 'verified')
    assert.equal(verified.serving, true)
    assert.equal(verified.failure, null)
    assert.ok(verified.verifiedAt)
    assert.ok(verified.records.every((record) => record.status === 'ok'))

    // Pages never ask DNS: the verified state is read from the database and memory.
    const asked = dns.questions
    const home = await page(app, 'docs.example.test', '/docs/')
    assert.equal(home.statusCode, 200)
    assert.match(home.headers.link as string, /<https:\/\/docs\.example\.test\/docs\/>; rel="canonical"/)
    assert.equal((await page(app, 'docs.example.test:8443', '/docs/')).statusCode, 200, 'any port')
    const bare = await page(app, 'docs.example.test', '/docs')
    assert.equal(bare.statusCode, 301)
    assert.equal(bare.headers.location, '/docs/')
    assert.equal((await page(app, 'docs.example.test', '/')).statusCode, 404, 'outside the prefix')
    assert.equal(
      (await page(app, 'docs.example.test', '/docsx/')).statusCode,
      404,
      'a longer name is outside',
    )
    const sitemap = await page(app, 'docs.example.test', '/docs/sitemap.xml')
    assert.match(sitemap.body, /<loc>https:\/\/docs\.example\.test\/docs\/<\/loc>/)
    const robots = await page(app, 'docs.example.test', '/docs/robots.txt')
    assert.match(robots.body, /^Sitemap: https:\/\/docs\.example\.test\/docs\/sitemap\.xml$/m)
    assert.equal(dns.questions, asked, 'no DNS question on the page path')

    const ask = await app.inject({ url: '/tls/ask?domain=docs.example.test' })
    assert.equal(ask.statusCode, 200)
    assert.deepEqual(ask.json(), { hostname: 'docs.example.test', verified: true })
    assert.equal((await app.inject({ url: '/tls/ask?domain=other.example.test' })).statusCode, 404)
    assert.equal((await app.inject({ url: '/tls/ask?domain=acme.localhost' })).statusCode, 404)
    assert.equal((await app.inject({ url: '/tls/ask' })).statusCode, 400)

    const listed = await app.inject({ url: `/projects/${project.id}/domains`, headers: bearer(owner) })
    assert.deepEqual(
      listed
        .json<{ domains: DomainBody[] }>()
        .domains.map((row) => [row.hostname, row.pathPrefix, row.status]),
      [['docs.example.test', '/docs', 'verified']],
    )
    const records = await app.inject({
      url: `/projects/${project.id}/domains/${domain.id}/verification`,
      headers: bearer(owner),
    })
    assert.equal(records.statusCode, 200)
    assert.equal(records.json<{ records: unknown[] }>().records.length, 2)
  })

test('a TXT record removed after verification: served through the grace period, then not', async (t) => {
  const { app, dns, owner, project } = await world(t)
  const domain = await added(app, owner, project.id, { hostname: 'docs.example.test' })
  publish(dns, domain)
  assert.equal((await verify(app, owner, project.id, domain.id)).status, 'verified')
  assert.equal((await page(app, 'docs.example.test', '/')).statusCode, 200)

  dns.remove(`_docs-challenge.docs.example.test`, 'TXT')
  const start = Date.now()
  assert.equal(await app.domains.recheckDue(new Date(start + 3600_000)), 1)
  const inGrace = (
    await app.inject({ url: `/projects/${project.id}/domains`, headers: bearer(owner) })
  ).json<{ domains: DomainBody[] }>().domains[0]!
  assert.equal(inGrace.status, 'verified')
  assert.equal(inGrace.serving, true)
  assert.equal(inGrace.failure?.reason, 'record_missing')
  assert.equal(Date.parse(inGrace.graceEndsAt ?? ''), start + 3600_000 + 7 * day)
  assert.equal(
    (await page(app, 'docs.example.test', '/')).statusCode,
    200,
    'still served in the grace period',
  )

  assert.equal(await app.domains.recheckDue(new Date(start + 8 * day)), 1)
  const stopped = (
    await app.inject({ url: `/projects/${project.id}/domains`, headers: bearer(owner) })
  ).json<{ domains: DomainBody[] }>().domains[0]!
  assert.equal(stopped.status, 'failed')
  assert.equal(stopped.serving, false)
  assert.equal(stopped.failure?.reason, 'record_missing')
  assert.equal((await page(app, 'docs.example.test', '/')).statusCode, 404, 'stops at once after grace')
  assert.equal((await app.inject({ url: '/tls/ask?domain=docs.example.test' })).statusCode, 404)

  // The record comes back: verified again on the next check.
  publish(dns, domain)
  assert.equal(await app.domains.recheckDue(new Date(start + 9 * day)), 1)
  assert.equal((await page(app, 'docs.example.test', '/')).statusCode, 200)
})

test('a lookup that gets no answer times out within the configured bound', async (t) => {
  const { app, dns, owner, project } = await world(t, 300)
  const domain = await added(app, owner, project.id, { hostname: 'slow.example.test' })
  dns.silence('_docs-challenge.slow.example.test')
  dns.silence('slow.example.test')
  const started = performance.now()
  const checked = await verify(app, owner, project.id, domain.id)
  const elapsed = performance.now() - started
  assert.equal(checked.status, 'failed')
  assert.equal(checked.failure?.reason, 'lookup_timed_out')
  assert.match(checked.failure?.message ?? '', /timed out/)
  t.diagnostic(`a silent resolver answered lookup_timed_out in ${Math.round(elapsed)} ms`)
})

test('two projects on one host with different prefixes: each proves itself, the longest prefix wins', async (t) => {
  const { app, dns, owner, project } = await world(t)
  await createProject(app, owner, 'guides')
  const guides = await deploy(app, owner, 'guides', await fixtureSite('full'))
  assert.equal(guides.finalized.statusCode, 200, guides.finalized.body)
  const guidesId = (await app.repos.projects.findBySlug('guides'))!.id

  const root = await added(app, owner, project.id, { hostname: 'example.test', pathPrefix: '/' })
  const nested = await added(app, owner, guidesId, { hostname: 'example.test', pathPrefix: '/guides' })
  assert.notEqual(root.records[0]!.value, nested.records[0]!.value, 'each claim has its own value')
  publish(dns, root)
  assert.equal((await verify(app, owner, project.id, root.id)).status, 'verified')
  // The host's TXT holds only the first project's value: the second has not proven anything yet.
  const unproven = await verify(app, owner, guidesId, nested.id)
  assert.equal(unproven.failure?.reason, 'wrong_value')
  assert.match((await page(app, 'example.test', '/guides/')).body, /Minimal Docs/, 'the root project answers')

  dns.set('_docs-challenge.example.test', 'TXT', [root.records[0]!.value, nested.records[0]!.value])
  assert.equal((await verify(app, owner, guidesId, nested.id)).status, 'verified')
  const guidesHome = await page(app, 'example.test', '/guides/')
  assert.equal(guidesHome.statusCode, 200)
  assert.doesNotMatch(guidesHome.body, /Minimal Docs/)
  assert.match(guidesHome.headers.link as string, /<https:\/\/example\.test\/guides\/>; rel="canonical"/)
  assert.match((await page(app, 'example.test', '/')).body, /Minimal Docs/)
  assert.equal(
    (await page(app, 'example.test', '/quickstart/')).statusCode,
    404,
    'root project has no such page',
  )
  assert.equal((await page(app, 'example.test', '/guides/quickstart/')).statusCode, 200)
})

test('another user cannot take over a host someone verified', async (t) => {
  const { app, dns, owner, project } = await world(t)
  const domain = await added(app, owner, project.id, { hostname: 'docs.example.test', pathPrefix: '/docs' })
  publish(dns, domain)
  assert.equal((await verify(app, owner, project.id, domain.id)).status, 'verified')

  const mallory = await signIn(app, 'mallory@example.com')
  const theirs = await createProject(app, mallory, 'mallory')
  assert.equal((await deploy(app, mallory, 'mallory', await fixtureSite('full'))).finalized.statusCode, 200)
  const same = await add(app, mallory, theirs.id, { hostname: 'docs.example.test', pathPrefix: '/docs' })
  assert.equal(same.statusCode, 409)
  assert.match(same.json().error, /claimed by another project/)
  assert.equal(
    (await add(app, owner, project.id, { hostname: 'docs.example.test', pathPrefix: '/docs' })).statusCode,
    409,
  )

  // Another prefix (or the whole host) may be claimed, but never serves without the claimant's own proof.
  const wider = await added(app, mallory, theirs.id, { hostname: 'docs.example.test' })
  const deeper = await added(app, mallory, theirs.id, {
    hostname: 'docs.example.test',
    pathPrefix: '/docs/api',
  })
  for (const claim of [wider, deeper]) {
    const checked = await verify(app, mallory, theirs.id, claim.id)
    assert.equal(checked.status, 'failed')
    assert.equal(checked.failure?.reason, 'wrong_value')
  }
  assert.equal(await app.domains.recheckDue(new Date(Date.now() + 2 * day)), 3)
  assert.equal((await page(app, 'docs.example.test', '/')).statusCode, 404)
  assert.equal((await page(app, 'docs.example.test', '/docs/api/')).statusCode, 404)
  assert.match((await page(app, 'docs.example.test', '/docs/')).body, /Minimal Docs/)
  // Nor can they see or touch the owner's domain.
  const peek = await app.inject({
    url: `/projects/${project.id}/domains/${domain.id}/verification`,
    headers: bearer(mallory),
  })
  assert.equal(peek.statusCode, 404)
  const viaOwnProject = await app.inject({
    method: 'DELETE',
    url: `/projects/${theirs.id}/domains/${domain.id}`,
    headers: bearer(mallory),
  })
  assert.equal(viaOwnProject.statusCode, 404)
  assert.match((await page(app, 'docs.example.test', '/docs/')).body, /Minimal Docs/)
})

test('delete stops serving at once, even with the host cached', async (t) => {
  const { app, dns, owner, project } = await world(t)
  const domain = await added(app, owner, project.id, { hostname: 'docs.example.test' })
  publish(dns, domain)
  await verify(app, owner, project.id, domain.id)
  assert.equal((await page(app, 'docs.example.test', '/')).statusCode, 200)
  assert.equal((await page(app, 'docs.example.test', '/')).statusCode, 200, 'now answered from memory')
  const removed = await app.inject({
    method: 'DELETE',
    url: `/projects/${project.id}/domains/${domain.id}`,
    headers: bearer(owner),
  })
  assert.equal(removed.statusCode, 204)
  assert.equal((await page(app, 'docs.example.test', '/')).statusCode, 404)
  const listed = await app.inject({ url: `/projects/${project.id}/domains`, headers: bearer(owner) })
  assert.deepEqual(listed.json(), { domains: [] })
})

test('a claim left unverified past --domain-pending-days expires (7 days by default)', async (t) => {
  const { app, owner, project } = await world(t)
  const domain = await added(app, owner, project.id, { hostname: 'late.example.test' })
  const created = Date.parse((await app.repos.domains.findById(domain.id))!.created_at)
  assert.equal(Date.parse(domain.expiresAt ?? ''), created + 7 * day)
  assert.equal(await app.domains.recheckDue(new Date(created + 6 * day)), 1)
  assert.equal((await app.repos.domains.findById(domain.id))?.status, 'failed', 'still alive on day 6')
  assert.equal(await app.domains.recheckDue(new Date(created + 8 * day)), 1)
  const [expired] = (
    await app.inject({ url: `/projects/${project.id}/domains`, headers: bearer(owner) })
  ).json<{ domains: DomainBody[] }>().domains
  assert.equal(expired?.status, 'expired')
  assert.equal(expired?.failure?.reason, 'expired')
  assert.match(expired?.failure?.message ?? '', /Not verified within 7 days/)
  assert.equal(expired?.expiresAt, null)
  const again = await app.inject({
    method: 'POST',
    url: `/projects/${project.id}/domains/${domain.id}/verify`,
    headers: bearer(owner),
  })
  assert.equal(again.statusCode, 409)
  const other = await signIn(app, 'bob@example.com')
  const bobs = await createProject(app, other, 'bobs')
  assert.equal((await add(app, other, bobs.id, { hostname: 'late.example.test' })).statusCode, 201)
  // The owner may claim it again too: a new claim with a new record value.
  const renewed = await added(app, owner, project.id, { hostname: 'late.example.test' })
  assert.notEqual(renewed.records[0]!.value, domain.records[0]!.value)
})

test('the pending lifetime is a setting, in days', async (t) => {
  const { domains } = await testDns(t, { recheckSeconds: 0, pendingDays: 2 })
  const { app, token: owner, project } = await appWithProject(t, 'acme', 'sqlite', { domains })
  const domain = await added(app, owner, project.id, { hostname: 'soon.example.test' })
  const created = Date.parse((await app.repos.domains.findById(domain.id))!.created_at)
  assert.equal(Date.parse(domain.expiresAt ?? ''), created + 2 * day)
  assert.equal(await app.domains.recheckDue(new Date(created + 3 * day)), 1)
  const row = await app.repos.domains.findById(domain.id)
  assert.equal(row?.status, 'expired')
  assert.match(row?.failure_message ?? '', /within 2 days/)
})

test('an unverified claim does not hold the name: whoever proves it in DNS takes it over', async (t) => {
  const { app, dns, owner, project } = await world(t)
  // Mallory claims the name first, but cannot publish records in example.test's DNS.
  const mallory = await signIn(app, 'mallory@example.com')
  const theirs = await createProject(app, mallory, 'mallory')
  const squat = await added(app, mallory, theirs.id, { hostname: 'docs.example.test', pathPrefix: '/docs' })
  const squatRoot = await added(app, mallory, theirs.id, { hostname: 'docs.example.test' })

  // The name's owner claims it anyway, with a record value of their own.
  const mine = await added(app, owner, project.id, { hostname: 'docs.example.test', pathPrefix: '/docs' })
  assert.notEqual(mine.records[0]!.value, squat.records[0]!.value)
  assert.equal(
    (await add(app, owner, project.id, { hostname: 'docs.example.test', pathPrefix: '/docs' })).statusCode,
    409,
    'one live claim of a name per project',
  )
  publish(dns, mine)
  const verified = await verify(app, owner, project.id, mine.id)
  assert.equal(verified.status, 'verified')
  assert.match((await page(app, 'docs.example.test', '/docs/')).body, /Minimal Docs/)

  // Mallory's claim of that (host, prefix) is gone; the claim of another prefix is untouched.
  const listed = (
    await app.inject({ url: `/projects/${theirs.id}/domains`, headers: bearer(mallory) })
  ).json<{ domains: DomainBody[] }>().domains
  const lost = listed.find((domain) => domain.id === squat.id)
  assert.equal(lost?.status, 'expired')
  assert.equal(lost?.failure?.reason, 'taken_over')
  assert.match(lost?.failure?.message ?? '', /Another project proved ownership of docs\.example\.test\/docs/)
  assert.equal(listed.find((domain) => domain.id === squatRoot.id)?.status, 'pending')
  const retry = await app.inject({
    method: 'POST',
    url: `/projects/${theirs.id}/domains/${squat.id}/verify`,
    headers: bearer(mallory),
  })
  assert.equal(retry.statusCode, 409)
  assert.match(retry.json().error, /taken over by another project/)
  const reclaim = await add(app, mallory, theirs.id, { hostname: 'docs.example.test', pathPrefix: '/docs' })
  assert.equal(reclaim.statusCode, 409, 'a verified name is not claimable')

  // A claim made around the takeover, whose value the DNS owner also published, stays unverified.
  const late = await app.repos.domains.create({
    projectId: theirs.id,
    hostname: 'docs.example.test',
    pathPrefix: '/docs',
  })
  assert.ok(late)
  dns.set('_docs-challenge.docs.example.test', 'TXT', [mine.records[0]!.value, late.challenge])
  const refused = await app.domains.verify(late)
  assert.equal(refused.status, 'failed')
  assert.equal(refused.failure_reason, 'claimed_elsewhere')
  assert.equal((await app.repos.domains.findById(mine.id))?.status, 'verified')
  assert.match((await page(app, 'docs.example.test', '/docs/')).body, /Minimal Docs/)
})

test('unverified claims per user are limited by --domain-pending-limit: 429 with a message', async (t) => {
  const { dns, domains } = await testDns(t, { dnsTimeoutMs: 400, recheckSeconds: 0, pendingPerUser: 3 })
  const { app, token: owner, project } = await appWithProject(t, 'acme', 'sqlite', { domains })
  const second = await createProject(app, owner, 'second')
  const first = await added(app, owner, project.id, { hostname: 'a.example.test' })
  await added(app, owner, project.id, { hostname: 'b.example.test' })
  await added(app, owner, second.id, { hostname: 'c.example.test' })
  const over = await add(app, owner, second.id, { hostname: 'd.example.test' })
  assert.equal(over.statusCode, 429, over.body)
  assert.match(
    over.json().error,
    /You have 3 unverified domains, the most one user may hold; verify or remove one/,
  )

  // Another user has a limit of their own.
  const bob = await signIn(app, 'bob@example.com')
  const bobs = await createProject(app, bob, 'bobs')
  assert.equal((await add(app, bob, bobs.id, { hostname: 'd.example.test' })).statusCode, 201)

  // A verified claim no longer counts; nor does a removed one.
  publish(dns, first)
  assert.equal((await verify(app, owner, project.id, first.id)).status, 'verified')
  const freed = await added(app, owner, second.id, { hostname: 'd.example.test' })
  assert.equal((await add(app, owner, second.id, { hostname: 'e.example.test' })).statusCode, 429)
  const removed = await app.inject({
    method: 'DELETE',
    url: `/projects/${second.id}/domains/${freed.id}`,
    headers: bearer(owner),
  })
  assert.equal(removed.statusCode, 204)
  assert.equal((await add(app, owner, second.id, { hostname: 'e.example.test' })).statusCode, 201)
})

test('bad hostnames and prefixes: 400 with {error, issues} that say what to fix', async (t) => {
  const { app, owner, project } = await world(t)
  const hostnames: [string, RegExp][] = [
    ['docs.example.com:8443', /without a port/],
    ['https://docs.example.com', /without a scheme/],
    ['docs.example.com/docs', /without a path/],
    ['*.example.com', /wildcards/],
    ['192.0.2.1', /IP address/],
    ['[2001:db8::1]', /IP address/],
    ['2001:db8::1', /IP address/],
    ['127.1', /IP address/],
    ['localhost:8080', /without a port/],
    ['acme.localhost', /belongs to this docs service/],
    ['deep.acme.localhost', /belongs to this docs service/],
    ['localhost', /fully qualified|belongs/],
    // 254 characters: one past what DNS allows.
    [
      `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(54)}.example`,
      /254 characters; DNS allows at most 253/,
    ],
    [`${'a'.repeat(64)}.example.com`, /not a valid host name/],
    ['-docs.example.com', /not a valid host name/],
    ['do_cs.example.com', /not a valid host name/],
    ['docs..example.com', /not a valid host name/],
    ['docs example.com', /not a valid host name/],
    ['', /give a host name/],
    ['docs', /fully qualified/],
  ]
  for (const [hostname, message] of hostnames) {
    const response = await add(app, owner, project.id, { hostname })
    assert.equal(response.statusCode, 400, `${hostname}: ${response.body}`)
    const body = response.json<{ error: string; issues: { path: string; message: string }[] }>()
    assert.equal(body.error, 'Invalid domain')
    assert.equal(body.issues[0]?.path, 'body/hostname')
    assert.match(body.issues[0]?.message ?? '', message, hostname)
  }
  // A service on its own API host: names under the API host are refused too.
  const apiHosted = await testApp(t, 'sqlite', { apiHost: 'api.docs.test', baseDomain: 'docs.test' })
  const apiOwner = await signIn(apiHosted)
  const onApi = { ...bearer(apiOwner), host: 'api.docs.test' }
  const created = await apiHosted.inject({
    method: 'POST',
    url: '/projects/',
    headers: onApi,
    payload: { name: 'P', slug: 'pages' },
  })
  assert.equal(created.statusCode, 201, created.body)
  for (const hostname of ['api.docs.test', 'x.api.docs.test', 'docs.test', 'pages.docs.test']) {
    const response = await apiHosted.inject({
      method: 'POST',
      url: `/projects/${created.json().id}/domains`,
      headers: onApi,
      payload: { hostname },
    })
    assert.equal(response.statusCode, 400, hostname)
    assert.match(response.json().issues[0].message, /belongs to this docs service/)
  }

  const prefixes: [string, RegExp][] = [
    ['/docs/../admin', /"\." or "\.\." segments/],
    ['/docs//api', /empty segment/],
    ['/docs?x=1', /without a query/],
    ['/docs#top', /without a query \(\?\) or fragment/],
    ['/docs%2Fapi', /encoded slash/],
    ['/docs%5capi', /encoded slash/],
    ['/docs/', /trailing slash/],
    ['docs', /start the prefix with "\/"/],
    [`/${'a'.repeat(999)}`, /at most 200/],
    ['/dö cs', /a segment has only/],
  ]
  for (const [pathPrefix, message] of prefixes) {
    const response = await add(app, owner, project.id, { hostname: 'docs.example.test', pathPrefix })
    assert.equal(response.statusCode, 400, `${pathPrefix}: ${response.body}`)
    const issue = response.json<{ issues: { path: string; message: string }[] }>().issues[0]
    assert.equal(issue?.path, 'body/pathPrefix')
    assert.match(issue?.message ?? '', message, pathPrefix)
  }
  const unknownField = await add(app, owner, project.id, { hostname: 'docs.example.test', port: 80 })
  assert.equal(unknownField.statusCode, 400)

  // Unicode names are stored IDNA-encoded.
  const idn = await added(app, owner, project.id, { hostname: 'Bücher.Example.test.' })
  assert.equal(idn.hostname, 'xn--bcher-kva.example.test')
})

test('the background re-check runs on its own at the configured interval', async (t) => {
  const { dns, domains } = await testDns(t, { dnsTimeoutMs: 300, recheckSeconds: 1 })
  const { app, token: owner, project } = await appWithProject(t, 'acme', 'sqlite', { domains })
  const domain = await added(app, owner, project.id, { hostname: 'docs.example.test' })
  publish(dns, domain)
  // No request asks for a check: the server's own round finds the records within a few seconds.
  for (let attempt = 0; attempt < 50; attempt++) {
    const row = await app.repos.domains.findById(domain.id)
    if (row?.status === 'verified') return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  assert.fail('the background round never verified the domain')
})

test("an apex on a server without apex addresses verifies through an ALIAS or flattening: the base domain's addresses", async (t) => {
  const { dns, domains } = await testDns(t, { dnsTimeoutMs: 400, recheckSeconds: 0 })
  const { app, token: owner, project } = await appWithProject(t, 'acme', 'sqlite', { domains })
  const domain = await added(app, owner, project.id, { hostname: 'example.test' })
  dns.set('_docs-challenge.example.test', 'TXT', [domain.records[0]!.value])
  dns.set('localhost', 'A', ['203.0.113.5'])
  dns.set('example.test', 'A', ['198.51.100.7'])
  assert.equal((await verify(app, owner, project.id, domain.id)).failure?.reason, 'points_elsewhere')
  dns.set('example.test', 'A', ['203.0.113.5'])
  assert.equal((await verify(app, owner, project.id, domain.id)).status, 'verified')
})

test('an apex name routes with A/AAAA records to the configured addresses', async (t) => {
  const { dns, domains } = await testDns(t, {
    dnsTimeoutMs: 400,
    recheckSeconds: 0,
    apexAddresses: ['192.0.2.10', '2001:db8::10'],
  })
  const { app, token: owner, project } = await appWithProject(t, 'acme', 'sqlite', { domains })
  const domain = await added(app, owner, project.id, { hostname: 'example.test', pathPrefix: '/docs' })
  assert.deepEqual(
    domain.records.map((record) => [record.type, record.name, record.value, record.use]),
    [
      ['TXT', '_docs-challenge.example.test', domain.records[0]!.value, 'always'],
      ['A', 'example.test', '192.0.2.10', 'always'],
      ['AAAA', 'example.test', '2001:db8::10', 'always'],
    ],
  )
  // A name that may be a subdomain keeps the CNAME beside the addresses.
  const sub = await added(app, owner, project.id, { hostname: 'docs.example.test' })
  assert.deepEqual(
    sub.records.map((record) => [record.type, record.use]),
    [
      ['TXT', 'always'],
      ['CNAME', 'subdomain'],
      ['A', 'apex'],
      ['AAAA', 'apex'],
    ],
  )
  dns.set('_docs-challenge.example.test', 'TXT', [domain.records[0]!.value])
  dns.set('example.test', 'A', ['198.51.100.7'])
  const elsewhere = await verify(app, owner, project.id, domain.id)
  assert.equal(elsewhere.failure?.reason, 'points_elsewhere')
  assert.match(elsewhere.failure?.message ?? '', /points at 198\.51\.100\.7/)
  dns.set('example.test', 'A', ['192.0.2.10'])
  dns.set('example.test', 'AAAA', ['2001:0db8:0:0:0:0:0:10'])
  assert.equal((await verify(app, owner, project.id, domain.id)).status, 'verified')
})
