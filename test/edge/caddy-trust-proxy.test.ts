/**
 * The X-Forwarded-For that deploy/Caddyfile's Caddy sends is believed only with `--trust-proxy`: two
 * docs-servers, one given Caddy's address and one not, each behind its own Caddy, an API rate limit of
 * 2 a minute, and readers on different loopback addresses (127.0.0.2, 127.0.0.3). With the flag each
 * reader has its own budget and cannot pick another address by sending the header itself; without it
 * every reader behind Caddy shares Caddy's one budget.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { type DocsServer, startDocsServer } from '../cli/helpers/docs-server.js'
import { needs } from '../tier.js'
import { type CaddyServer, httpsGet, noCaddy, startCaddy } from './caddy-server.js'

const skip = needs('a built binary') || noCaddy
const apiHost = 'api.docs.test'
const baseDomain = 'docs.test'
const [readerA, readerB] = ['127.0.0.2', '127.0.0.3']

interface Edge {
  server: DocsServer
  caddy: CaddyServer
}

/** Stopped at the end, the last started first; a docs-server whose Caddy never came up too. */
const stops: (() => Promise<void>)[] = []
after(async () => {
  for (const stop of stops.reverse()) await stop()
})

async function startEdge(extraArgs: string[]): Promise<Edge> {
  const server = await startDocsServer([
    ...['--base-domain', baseDomain, '--api-host', apiHost, '--rate-limit', '2'],
    ...extraArgs,
  ])
  stops.push(() => server.stop())
  const caddy = await startCaddy({ apiHost, baseDomain, upstreams: [`127.0.0.1:${server.port}`] })
  stops.push(() => caddy.stop())
  return { server, caddy }
}

let trusting: Edge
let untrusting: Edge

before(async () => {
  if (skip) return
  trusting = await startEdge(['--trust-proxy', '127.0.0.1'])
  untrusting = await startEdge([])
})

/** An API request (counted by the rate limit) from `reader` through `edge`'s Caddy: its status. */
const call = async (edge: Edge, reader: string, headers: Record<string, string> = {}) =>
  (
    await httpsGet(edge.caddy.httpsPort, apiHost, '/projects/', edge.caddy.rootCertificate, {
      localAddress: reader,
      headers,
    })
  ).status

test('with --trust-proxy, each reader behind Caddy has a budget of its own', { skip }, async () => {
  assert.deepEqual([await call(trusting, readerA), await call(trusting, readerA)], [401, 401])
  assert.equal(await call(trusting, readerA), 429)
  assert.equal(await call(trusting, readerB), 401, 'another reader is not limited for the first one')
  // Only Caddy's hop is believed: an X-Forwarded-For the reader makes up buys no fresh budget.
  assert.equal(await call(trusting, readerA, { 'x-forwarded-for': '192.0.2.7' }), 429)
})

test('without --trust-proxy, every reader behind Caddy shares its budget', { skip }, async () => {
  assert.deepEqual([await call(untrusting, readerA), await call(untrusting, readerA)], [401, 401])
  assert.equal(await call(untrusting, readerB), 429, "the second reader counts as Caddy's address too")
})
