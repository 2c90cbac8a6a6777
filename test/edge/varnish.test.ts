/**
 * The shipped deploy/varnish.vcl in front of a real docs-server, both started here on loopback:
 * pages cached per Host, purged by xkey when a deployment goes live (for every host of the project
 * and for no other project), a failed purge retried, and readers served while docs-server is down.
 * docs-server purges through a link the test can break (test/edge/varnish.ts).
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { gunzipSync } from 'node:zlib'
import pg from 'pg'
import { type DocsServer, freePort, startDocsServer } from '../cli/helpers/docs-server.js'
import {
  apiHost,
  baseDomain,
  operatorToken,
  type Replica,
  startReplica,
  stopReplica,
} from '../e2e/replicas.js'
import { startS3Server } from '../server/blobs/s3-server.js'
import { startTestDnsServer, type TestDnsServer } from '../server/domains/dns-server.js'
import { dropSchema, postgresUrl } from '../server/helper.js'
import { needs } from '../tier.js'
import {
  DocsApi,
  type HttpAnswer,
  markerOf,
  noVarnish,
  type PurgeLink,
  shippedFolder,
  shippedVcl,
  siteSaying,
  startPurgeLink,
  startVarnish,
  type Varnish,
} from './varnish.js'

const skip = noVarnish() || needs('a built binary')

/** Reads `host` + `path` through Varnish until `done` holds; the answer and the milliseconds it took. */
async function until(
  varnish: Varnish,
  host: string,
  path: string,
  done: (answer: HttpAnswer) => boolean,
  limitMs = 10_000,
): Promise<{ answer: HttpAnswer; ms: number }> {
  const started = performance.now()
  for (;;) {
    const answer = await varnish.get(host, path)
    const ms = performance.now() - started
    if (done(answer)) return { answer, ms }
    if (ms > limitMs)
      throw new Error(`${host}${path} still says ${markerOf(answer)} (${answer.status}) after ${limitMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

test('the shipped VCL and its origin file compile with Varnish', { skip: noVarnish() }, () => {
  const folder = mkdtempSync(join(tmpdir(), 'docs-varnish-compile-'))
  // varnishd makes its instance folder itself, for the unprivileged user it compiles as.
  chmodSync(folder, 0o755)
  try {
    const compiled = spawnSync('varnishd', [
      ...['-C', '-f', shippedVcl, '-p', `vcl_path=${shippedFolder}`],
      ...['-n', join(folder, 'instance')],
    ])
    assert.equal(compiled.status, 0, compiled.stderr.toString())
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
})

describe('Varnish in front of docs-server', { skip }, () => {
  let dns: TestDnsServer
  let server: DocsServer
  let varnish: Varnish
  let link: PurgeLink
  let api: DocsApi
  const deployments: Record<string, string[]> = { alpha: [], beta: [] }
  const shared = 'shared.example.test'
  let hosts: { alpha: string[]; beta: string[] }
  /** Each project's home on each of its hosts: its own host and its prefix on the shared domain. */
  const homes = (project: 'alpha' | 'beta') => [
    { host: hosts[project][0]!, path: '/' },
    { host: shared, path: `/${project}/` },
  ]

  before(async () => {
    dns = await startTestDnsServer()
    // Varnish's port first: docs-server purges it (through the link), Varnish fetches from docs-server.
    const varnishPort = await freePort()
    link = await startPurgeLink(varnishPort)
    server = await startDocsServer([
      ...['--dns-resolver', dns.address, '--dns-timeout', '1000'],
      ...['--cdn-purge', `varnish:${link.url}`],
    ])
    varnish = await startVarnish([server.port], { port: varnishPort })
    api = new DocsApi(server.port, server.baseDomain, await server.tokenFor('ada@example.com'))
    hosts = { alpha: [`alpha.${server.baseDomain}`], beta: [`beta.${server.baseDomain}`] }
    for (const project of ['alpha', 'beta'] as const) {
      const { id } = await api.createProject(project)
      deployments[project]!.push(await api.push(project, siteSaying(`${project}-1`, 2)))
      // Both projects on one custom domain, each under its own prefix: one Host, two projects.
      const domain = await api.call<{
        id: string
        records: { type: 'TXT' | 'CNAME'; name: string; value: string }[]
      }>('POST', `/projects/${id}/domains`, { hostname: shared, pathPrefix: `/${project}` })
      for (const record of domain.records) dns.set(record.name, record.type, [record.value])
      const verified = await api.call<{ status: string }>(
        'POST',
        `/projects/${id}/domains/${domain.id}/verify`,
      )
      assert.equal(verified.status, 'verified')
    }
  })

  after(async () => {
    await varnish?.stop()
    await server?.stop()
    await link?.close()
    await dns?.close()
  })

  test('a page is cached per Host and URL: two projects never mix under one Host', async () => {
    for (const project of ['alpha', 'beta'] as const) {
      for (const { host, path } of homes(project)) {
        const first = await varnish.get(host, path)
        assert.equal(first.status, 200, `${host}${path}: ${first.text()}`)
        assert.equal(markerOf(first), `${project}-1`, `${host}${path}`)
        const again = await varnish.get(host, path)
        assert.equal(again.headers['x-cache'], 'HIT', `${host}${path}`)
        assert.equal(markerOf(again), `${project}-1`, `${host}${path}`)
        // The xkey index and the VCL's own flags stay inside Varnish.
        assert.equal(again.headers.xkey, undefined)
        assert.equal(again.headers['x-docs-stale-while-revalidate'], undefined)
      }
    }
    // The same path on another project's host, and a host that is no site, are not served from the cache.
    const unknown = await varnish.get(`nobody.${server.baseDomain}`, '/')
    assert.equal(unknown.status, 404)
    assert.equal((await varnish.get(`nobody.${server.baseDomain}`, '/')).headers['x-cache'], 'MISS')
    assert.equal(markerOf(await varnish.get(shared, '/beta/page-1/')), 'beta-1')

    // A preview is served through the cache but never stored by it (Cache-Control: private).
    const { previewUrl } = await api.call<{ previewUrl: string }>(
      'GET',
      `/projects/slug/alpha/deployments/${deployments.alpha![0]}`,
    )
    const previewHost = new URL(previewUrl).host
    for (let read = 0; read < 2; read++) {
      const preview = await varnish.get(previewHost, '/')
      assert.equal(markerOf(preview), 'alpha-1')
      assert.equal(preview.headers['cache-control'], 'private, no-cache')
      assert.equal(preview.headers['x-cache'], 'MISS', `preview read ${read + 1}`)
    }
  })

  test('variants stay apart: Markdown and HTML, brotli, gzip and plain bytes of one URL', async () => {
    const host = hosts.alpha[0]!
    for (let round = 0; round < 2; round++) {
      const markdown = await varnish.get(host, '/page-1/', { accept: 'text/markdown' })
      assert.match(markdown.headers['content-type'] as string, /^text\/markdown/)
      assert.match(markdown.text(), /The marker is alpha-1 on page-1/)
      const html = await varnish.get(host, '/page-1/', { accept: 'text/html,*/*;q=0.8' })
      assert.match(html.headers['content-type'] as string, /^text\/html/)
      const br = await varnish.get(host, '/page-1/', { 'accept-encoding': 'gzip, deflate, br' })
      assert.equal(br.headers['content-encoding'], 'br')
      const gzip = await varnish.get(host, '/page-1/', { 'accept-encoding': 'gzip' })
      assert.equal(gzip.headers['content-encoding'], 'gzip')
      assert.match(gunzipSync(gzip.body).toString(), /alpha-1 on page-1/)
      const plain = await varnish.get(host, '/page-1/')
      assert.equal(plain.headers['content-encoding'], undefined)
      assert.match(plain.text(), /alpha-1 on page-1/)
      if (round === 1)
        for (const answer of [markdown, html, br, gzip, plain]) assert.equal(answer.headers['x-cache'], 'HIT')
    }
    // If-None-Match from a reader gets Varnish's 304 for the cached copy.
    const cached = await varnish.get(host, '/page-1/')
    const revalidated = await varnish.get(host, '/page-1/', {
      'if-none-match': cached.headers.etag as string,
    })
    assert.equal(revalidated.status, 304)
  })

  test('a push and a rollback show within 1 s on every host of the project, and no other project is purged', async (t) => {
    for (const [step, change] of [
      ['push', async () => deployments.alpha!.push(await api.push('alpha', siteSaying('alpha-2', 2)))],
      ['rollback', () => api.promote('alpha', deployments.alpha![0]!)],
    ] as const) {
      for (const project of ['alpha', 'beta'] as const)
        for (const { host, path } of homes(project)) await varnish.get(host, path)
      const expected = step === 'push' ? 'alpha-2' : 'alpha-1'
      await change()
      for (const { host, path } of homes('alpha')) {
        const { ms } = await until(varnish, host, path, (answer) => markerOf(answer) === expected)
        t.diagnostic(`${step}: ${host}${path} fresh after ${ms.toFixed(1)} ms`)
        assert.ok(ms < 1000, `${step}: ${host}${path} showed ${expected} after ${Math.round(ms)} ms`)
      }
      for (const { host, path } of homes('beta')) {
        const answer = await varnish.get(host, path)
        assert.equal(answer.headers['x-cache'], 'HIT', `${step} kept ${host}${path}`)
        assert.equal(markerOf(answer), 'beta-1')
      }
    }
  })

  test('a purge that fails is retried until Varnish has it', async () => {
    const host = hosts.alpha[0]!
    await varnish.get(host, '/')
    assert.equal(markerOf(await varnish.get(host, '/')), 'alpha-1')
    link.broken = true
    const forwarded = link.forwarded.length
    await api.push('alpha', siteSaying('alpha-3', 2))
    // Each failed attempt leaves the cached page in place…
    while (link.failed < 2) {
      assert.equal(markerOf(await varnish.get(host, '/')), 'alpha-1')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    // …and the next attempt, once the link is back, purges it.
    link.broken = false
    await until(varnish, host, '/', (answer) => markerOf(answer) === 'alpha-3')
    assert.ok(link.forwarded.length > forwarded)
    assert.match(link.forwarded.at(-1) ?? '', /^project-prj_\S+$/)
  })
})

describe('Varnish in front of two replicas', { skip: skip || needs('PostgreSQL') }, () => {
  const cleanups: (() => Promise<void>)[] = []
  const replicas: Replica[] = []
  let varnish: Varnish
  let api: DocsApi
  const host = `delta.${baseDomain}`

  before(async () => {
    const admin = new pg.Client({ connectionString: postgresUrl })
    await admin.connect()
    cleanups.push(() => admin.end())
    const databaseSchema = `edge_${randomBytes(6).toString('hex')}`
    await admin.query(`create schema ${databaseSchema}`)
    cleanups.push(async () => void (await dropSchema(admin, databaseSchema)))
    const s3 = await startS3Server({ after: (fn) => cleanups.push(fn) })
    const varnishPort = await freePort()
    const settings = {
      databaseUrl: postgresUrl,
      databaseSchema,
      blobStoreArgs: s3.args('edge'),
      extraArgs: ['--cdn-purge', `varnish:http://127.0.0.1:${varnishPort}`],
    }
    // The first runs the migrations.
    replicas.push(await startReplica('r1', settings))
    replicas.push(await startReplica('r2', settings))
    cleanups.push(async () => {
      for (const replica of replicas) await stopReplica(replica)
    })
    varnish = await startVarnish(
      replicas.map((replica) => replica.port),
      { port: varnishPort },
    )
    cleanups.push(() => varnish.stop())
    api = new DocsApi(replicas[0]!.port, apiHost, await operatorToken(settings, 'ada@example.com'))
  })

  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  test('promotes through either replica show within 1 s through the cache', async (t) => {
    await api.createProject('delta')
    const deployments = [
      await api.push('delta', siteSaying('delta-1')),
      await api.push('delta', siteSaying('delta-2')),
    ]
    const through = [api, new DocsApi(replicas[1]!.port, apiHost, api.token)]
    // Rollbacks and back, through r2 and r1 in turn; Varnish fetches from either (round robin). The
    // other replica learns of each through PostgreSQL, racing the purge the promoting one sends.
    for (let round = 0; round < 6; round++) {
      await until(varnish, host, '/', (answer) => answer.headers['x-cache'] === 'HIT')
      const live = round % 2 === 0 ? 0 : 1
      assert.equal(markerOf(await varnish.get(host, '/')), `delta-${2 - live}`)
      await through[(round + 1) % 2]!.promote('delta', deployments[live]!)
      const { ms } = await until(varnish, host, '/', (answer) => markerOf(answer) === `delta-${live + 1}`)
      t.diagnostic(
        `promote ${round + 1} through r${((round + 1) % 2) + 1}: fresh through Varnish after ${ms.toFixed(1)} ms`,
      )
      assert.ok(ms < 1000, `promote ${round + 1}: fresh after ${Math.round(ms)} ms`)
    }
  })
})

describe('Varnish while docs-server is down', { skip }, () => {
  let server: DocsServer
  let varnish: Varnish

  before(async () => {
    // Pages a shared cache may keep 1 s and never serve stale while the origin answers: the stale
    // copies served below are served because docs-server is down (stale-if-error), not by accident.
    server = await startDocsServer(['--cdn-max-age', '1', '--cdn-stale-while-revalidate', '0'])
    varnish = await startVarnish([server.port])
    const api = new DocsApi(server.port, server.baseDomain, await server.tokenFor('ada@example.com'))
    await api.createProject('gamma')
    await api.push('gamma', siteSaying('gamma-1', 2))
  })

  after(async () => {
    await varnish?.stop()
    await server?.stop()
  })

  test('cached pages keep being served past their lifetime; an uncached one answers the 503 page', async () => {
    const host = `gamma.${server.baseDomain}`
    for (const path of ['/', '/page-1/']) {
      assert.equal(markerOf(await varnish.get(host, path)), 'gamma-1')
      assert.equal((await varnish.get(host, path)).headers['x-cache'], 'HIT')
    }
    await server.stop()
    // s-maxage is 1 s: read until Varnish says it served a stale copy because the origin failed. Every
    // read on the way is the page.
    const { answer } = await until(varnish, host, '/', (read) => {
      assert.equal(read.status, 200)
      assert.equal(markerOf(read), 'gamma-1')
      return read.headers['x-cache'] === 'HIT, stale: origin down'
    })
    assert.equal(answer.status, 200)
    assert.equal(markerOf(await varnish.get(host, '/page-1/')), 'gamma-1')

    for (const [where, path] of [
      [host, '/page-2/'],
      [`nobody.${server.baseDomain}`, '/'],
    ] as const) {
      const down = await varnish.get(where, path)
      assert.equal(down.status, 503, `${where}${path}`)
      assert.match(down.headers['content-type'] as string, /^text\/html/)
      assert.equal(down.headers['cache-control'], 'no-store')
      assert.equal(down.headers['retry-after'], '30')
      assert.match(down.text(), /<h1>Docs temporarily unavailable<\/h1>/)
      assert.match(down.text(), /not answering/)
    }
  })
})
