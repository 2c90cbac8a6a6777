/**
 * deploy/Caddyfile as shipped, run by Debian's Caddy in front of two docs-server replicas (one
 * PostgreSQL schema, one S3 bucket, the README's "replicas behind Caddy"), certificates from Caddy's
 * internal CA: the API host and every `<slug>.<base domain>` over HTTPS; a custom domain verified in DNS
 * (a DNS server on loopback) gets a certificate on demand and its site, while a pending or unknown name
 * gets no certificate at all; a replica going down loses no request.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, test } from 'node:test'
import pg from 'pg'
import {
  apiHost,
  baseDomain,
  operatorToken,
  push,
  type Replica,
  siteSaying,
  startReplica,
  stopReplica,
} from '../e2e/replicas.js'
import { startS3Server } from '../server/blobs/s3-server.js'
import { startTestDnsServer, type TestDnsServer } from '../server/domains/dns-server.js'
import { dropSchema, postgresUrl } from '../server/helper.js'
import { needs } from '../tier.js'
import { type CaddyServer, handshake, httpsGet, noCaddy, startCaddy } from './caddy-server.js'

const skip = needs('PostgreSQL') || noCaddy
const customDomain = 'docs.example.test'

const afterAll: (() => Promise<void>)[] = []
after(async () => {
  for (const step of afterAll.reverse()) await step()
})

let caddy: CaddyServer
let dns: TestDnsServer
const replicas: Replica[] = []
let token = ''
let projectId = ''

const get = (name: string, path = '/', options: { headers?: Record<string, string> } = {}) =>
  httpsGet(caddy.httpsPort, name, path, caddy.rootCertificate, options)

/** Adds `hostname` to the project and answers its record values (TXT ownership, CNAME routing). */
async function addDomain(hostname: string): Promise<{ id: string; txt: string; cname: string }> {
  const added = await replicas[0]!.api('POST', `/projects/${projectId}/domains`, token, { hostname })
  assert.equal(added.status, 201, added.text())
  const domain = added.json<{ id: string; records: { type: string; value: string }[] }>()
  const value = (type: string) => domain.records.find((record) => record.type === type)!.value
  return { id: domain.id, txt: value('TXT'), cname: value('CNAME') }
}

/** Publishes the domain's records in DNS and verifies it through the second replica. */
async function verify(hostname: string, domain: { id: string; txt: string; cname: string }): Promise<void> {
  dns.set(`_docs-challenge.${hostname}`, 'TXT', [domain.txt])
  dns.set(hostname, 'CNAME', [domain.cname])
  const verified = await replicas[1]!.api('POST', `/projects/${projectId}/domains/${domain.id}/verify`, token)
  assert.equal(verified.status, 200, verified.text())
  assert.equal(verified.json<{ status: string }>().status, 'verified')
}

before(async () => {
  if (skip) return
  const admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  afterAll.push(() => admin.end())
  const databaseSchema = `caddy_${randomBytes(6).toString('hex')}`
  await admin.query(`create schema ${databaseSchema}`)
  afterAll.push(async () => void (await dropSchema(admin, databaseSchema)))
  const s3 = await startS3Server({ after: (fn) => afterAll.push(fn) })
  dns = await startTestDnsServer()
  afterAll.push(() => dns.close())
  const settings = {
    databaseUrl: postgresUrl,
    databaseSchema,
    blobStoreArgs: s3.args('caddy'),
    extraArgs: ['--dns-resolver', dns.address, '--dns-timeout', '1000', '--trust-proxy', '127.0.0.1'],
  }
  // The first runs the migrations, then the second starts on the same schema.
  replicas.push(await startReplica('r1', settings))
  replicas.push(await startReplica('r2', settings))
  afterAll.push(async () => {
    for (const replica of replicas) await stopReplica(replica)
  })
  token = await operatorToken(settings, 'caddy@example.com')
  caddy = await startCaddy({
    apiHost,
    baseDomain,
    upstreams: replicas.map((replica) => `127.0.0.1:${replica.port}`),
  })
  afterAll.push(() => caddy.stop())

  const created = await replicas[0]!.api('POST', '/projects/', token, { name: 'Acme', slug: 'acme' })
  assert.equal(created.status, 201, created.text())
  projectId = created.json<{ id: string }>().id
  const pushed = await push(replicas[0]!, token, 'acme', siteSaying('acme-live'))
  assert.equal(pushed.finalized.status, 200, pushed.finalized.text())
})

test('the API host answers over HTTPS with a certificate from the internal CA', { skip }, async () => {
  const health = await get(apiHost, '/health')
  assert.equal(health.status, 200, health.body)
  assert.match(health.certificate.subjectaltname ?? '', new RegExp(`DNS:${apiHost.replace(/\./g, '\\.')}`))
  assert.match(String(health.certificate.issuer.CN), /Caddy Local Authority/)
  const projects = await get(apiHost, '/projects/', { headers: { authorization: `Bearer ${token}` } })
  assert.equal(projects.status, 200, projects.body)
  assert.match(projects.body, /"slug":"acme"/)
})

test('every <slug>.<base domain> is served over HTTPS under the wildcard certificate', { skip }, async () => {
  const page = await get(`acme.${baseDomain}`)
  assert.equal(page.status, 200, page.body)
  assert.match(page.body, /The marker is acme-live\./)
  assert.match(
    page.certificate.subjectaltname ?? '',
    new RegExp(`DNS:\\*\\.${baseDomain.replace(/\./g, '\\.')}`),
  )
  // A name under the base domain that serves nothing is docs-server's 404, still over HTTPS.
  const missing = await get(`nobody.${baseDomain}`)
  assert.equal(missing.status, 404)
})

test('a verified custom domain gets a certificate on demand and serves its site', { skip }, async () => {
  await verify(customDomain, await addDomain(customDomain))

  const page = await get(customDomain)
  assert.equal(page.status, 200, page.body)
  assert.match(page.body, /The marker is acme-live\./)
  assert.equal(page.certificate.subjectaltname, `DNS:${customDomain}`)
  assert.match(String(page.certificate.issuer.CN), /Caddy Local Authority/)
})

test('a pending custom domain and an unknown name get no certificate', { skip }, async () => {
  const pending = 'pending.example.test'
  await addDomain(pending)
  for (const name of [pending, 'unknown.example.test']) {
    const outcome = await handshake(caddy.httpsPort, name, caddy.rootCertificate)
    assert.ok('error' in outcome, `${name} got a certificate: ${JSON.stringify(outcome)}`)
    assert.match(outcome.error.message, /tlsv1 alert internal error/, name)
  }
  // Caddy asked docs-server, which said no: the name is not a verified custom domain.
  const ask = await replicas[0]!.api('GET', `/tls/ask?domain=${pending}`, token)
  assert.equal(ask.status, 404)
})

test('a name refused while pending gets its certificate once it is verified', { skip }, async () => {
  const later = 'later.example.test'
  const domain = await addDomain(later)
  assert.ok('error' in (await handshake(caddy.httpsPort, later, caddy.rootCertificate)))
  await verify(later, domain)
  // Caddy keeps no memory of the refusal: the next reader gets the certificate and the site.
  const page = await get(later)
  assert.equal(page.status, 200, page.body)
  assert.equal(page.certificate.subjectaltname, `DNS:${later}`)
})

test('with one replica stopped, every request is answered by the other', { skip }, async () => {
  const [first, second] = replicas as [Replica, Replica]
  await stopReplica(first)
  const statuses: number[] = []
  for (let round = 0; round < 6; round++) {
    statuses.push((await get(`acme.${baseDomain}`)).status, (await get(customDomain)).status)
    statuses.push((await get(apiHost, '/health')).status)
  }
  assert.deepEqual(new Set(statuses), new Set([200]), `answers: ${statuses.join(', ')}`)
  assert.equal(second.process.exitCode, null)
})
