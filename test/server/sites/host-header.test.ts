/** The site hot path reads four headers from rawHeaders: what it reads must be what Node's request.headers says. */
import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { connect } from 'node:net'
import { test } from 'node:test'
import { readSiteHeaders, type SiteRequestHeaders } from '../../../server/sites/host-header.js'

/** Sends `head` as a raw request and returns what the server read both ways. */
async function readBothWays(head: string): Promise<{ ours: SiteRequestHeaders; node: IncomingHttpHeaders }> {
  let seen: { ours: SiteRequestHeaders; node: IncomingHttpHeaders } | undefined
  const server = createServer((request, response) => {
    seen = { ours: readSiteHeaders(request.rawHeaders), node: request.headers }
    response.end('ok')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(`${head}\r\nConnection: close\r\n\r\n`))
    socket.on('data', () => {})
    socket.on('close', () => resolve())
    socket.on('error', reject)
  })
  await new Promise((resolve) => server.close(resolve))
  assert.ok(seen, 'the request reached the server')
  return seen
}

const requests = [
  'GET / HTTP/1.1\r\nHost: docs.example.com',
  'GET / HTTP/1.1\r\nhOsT: Docs.Example.com:8080\r\nAccept-Encoding: gzip\r\nACCEPT-ENCODING: br',
  'GET /a/ HTTP/1.1\r\nHost: a.test\r\nAccept: text/markdown\r\naccept: text/html;q=0.5\r\nIf-None-Match: "abc"\r\nif-none-match: "def"',
  'GET / HTTP/1.1\r\nX-Host: other.test\r\nHost: a.test\r\nAccepts: nothing\r\nAccept-Encodings: zstd',
  'GET / HTTP/1.1\r\nHost: first.test\r\nHost: second.test',
  'GET / HTTP/1.0',
]

for (const head of requests) {
  test(`reads the headers Node reads: ${JSON.stringify(head.split('\r\n').slice(1))}`, async () => {
    const { ours, node } = await readBothWays(head)
    assert.equal(ours.host, node.host ?? '')
    assert.equal(ours.accept, node.accept)
    assert.equal(ours.acceptEncoding, node['accept-encoding'])
    assert.equal(ours.ifNoneMatch, node['if-none-match'])
    assert.equal(ours.hostCount, head.split('\r\n').filter((line) => /^host:/i.test(line)).length)
  })
}
