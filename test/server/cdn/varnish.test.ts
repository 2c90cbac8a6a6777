/**
 * Purges of Varnish nodes (`--cdn-purge varnish:<url>,<url>`) against two HTTP servers on loopback
 * that record the request shape deploy/varnish.vcl reads: `PURGE /` with the tags in `xkey-purge`.
 * test/edge/varnish.test.ts sends the same purges to a real varnishd.
 */
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type TestContext, test } from 'node:test'
import { projectTag } from '../../../server/cdn/purger.js'
import { loadConfig } from '../../../server/config.js'
import { ConfigError } from '../../../server/settings/errors.js'
import { purgerFor, quiet } from './helpers.js'

const readTarget = (cdnPurge: string) => loadConfig([], { DOCS_CDN_PURGE: cdnPurge }).config.cdnPurge

interface Seen {
  method: string
  path: string
  tags: string
}

/** A Varnish node stand-in that answers each PURGE with the next of `statuses` (then 200). */
async function node(t: TestContext, statuses: number[] = []) {
  const seen: Seen[] = []
  const server = createServer((request, response) => {
    seen.push({
      method: request.method ?? '',
      path: request.url ?? '',
      tags: String(request.headers['xkey-purge'] ?? ''),
    })
    const status = statuses.shift() ?? 200
    response.writeHead(status, { 'content-type': 'text/plain' })
    response.end(status === 200 ? '{"purged": 3}\n' : 'Not allowed to purge\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

test('settings: varnish:<url>,<url> names every node; a bad URL or none is refused', () => {
  assert.deepEqual(readTarget('varnish:http://10.0.0.5:6081, http://10.0.0.6:6081/'), {
    kind: 'varnish',
    nodes: ['http://10.0.0.5:6081', 'http://10.0.0.6:6081'],
  })
  // No token needed: deploy/varnish.vcl lets the addresses of its docs_purgers ACL purge.
  assert.deepEqual(readTarget('varnish:http://127.0.0.1'), { kind: 'varnish', nodes: ['http://127.0.0.1'] })
  for (const [text, message] of [
    ['varnish:', /expected varnish:<url>\[,<url>…\]/],
    ['varnish:ftp://cache', /expected an http:\/\/ or https:\/\/ URL, got "ftp:\/\/cache"/],
    ['varnsh:http://cache', /expected cloudflare:<zone id>, fastly:<service id>, varnish:<url>/],
  ] as const) {
    assert.throws(
      () => readTarget(text),
      (error: unknown) => error instanceof ConfigError && message.test(error.message),
      text,
    )
  }
})

test('every node gets PURGE / with the tags in xkey-purge; a node that failed is asked again', async (t) => {
  const first = await node(t)
  const second = await node(t, [503])
  const { purge } = await purgerFor(t, { kind: 'varnish', nodes: [first.url, second.url] })
  assert.equal(await purge(['project-p1', 'deployment-d1'], 'promote'), true)
  assert.deepEqual(second.seen, [
    { method: 'PURGE', path: '/', tags: 'project-p1 deployment-d1' },
    { method: 'PURGE', path: '/', tags: 'project-p1 deployment-d1' },
  ])
  assert.equal(first.seen.length, 2, 'the retry purges every node again: twice is harmless')
})

test('tags go 100 a request; a node down is retried until the attempts end', async (t) => {
  const up = await node(t)
  const { purge } = await purgerFor(t, { kind: 'varnish', nodes: [up.url] })
  const tags = Array.from({ length: 150 }, (_, index) => `deployment-d${index}`)
  assert.equal(await purge(tags, 'gc'), true)
  assert.deepEqual(
    up.seen.map((request) => request.tags.split(' ').length),
    [100, 50],
  )

  const errors: string[] = []
  const log = { ...quiet, error: (details: object) => errors.push(JSON.stringify(details)) }
  const down = await purgerFor(t, { kind: 'varnish', nodes: ['http://127.0.0.1:9'] }, log)
  assert.equal(await down.purge([projectTag('p1')], 'promote'), false)
  assert.match(errors[0] ?? '', /"attempt":4/)
  assert.match(errors[0] ?? '', /http:\/\/127\.0\.0\.1:9: request failed/)
})

test('a 403 (the purging address is outside docs_purgers) is not retried', async (t) => {
  const refusing = await node(t, [403])
  const errors: string[] = []
  const log = { ...quiet, error: (details: object) => errors.push(JSON.stringify(details)) }
  const { purge } = await purgerFor(t, { kind: 'varnish', nodes: [refusing.url] }, log)
  assert.equal(await purge([projectTag('p1')], 'promote'), false)
  assert.equal(refusing.seen.length, 1)
  assert.match(errors[0] ?? '', /HTTP 403: Not allowed to purge/)
})
