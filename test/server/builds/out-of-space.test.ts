/**
 * A full disk while a multipart part is being stored: the API answers 507 with `{error}` and closes
 * the connection, instead of a 400 and a keep-alive socket left waiting on a body nobody reads.
 */
import assert from 'node:assert/strict'
import { Agent, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Readable } from 'node:stream'
import { test } from 'node:test'
import { bearer, createProject, manifestOf, multipartBody, signIn, testApp } from '../helper.js'

test('ENOSPC inside a multipart part answers 507 and closes the connection cleanly', async (t) => {
  const app = await testApp(t, 'sqlite')
  const token = await signIn(app)
  await createProject(app, token, 'full-disk')
  const bytes = Buffer.alloc(3 * 1024 * 1024, 'a')
  const files = new Map([['big.txt', bytes]])
  const created = await app.inject({
    method: 'POST',
    url: '/projects/slug/full-disk/deployments',
    headers: bearer(token),
    payload: { branch: 'main', files: manifestOf(files) },
  })
  const { id } = created.json().deployment as { id: string }
  // The disk fills up after the first 64 KB of the part reach the store.
  const putStream = app.blobs.putStream.bind(app.blobs)
  app.blobs.putStream = async (source: Readable, options) => {
    let seen = 0
    for await (const chunk of source as AsyncIterable<Buffer>) {
      seen += chunk.length
      if (seen > 64 * 1024)
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    }
    return putStream(source, options)
  }
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  t.after(() => agent.destroy())
  const body = multipartBody([{ name: 'big.txt', bytes }])
  const response = await new Promise<{
    status: number
    headers: Record<string, unknown>
    text: string
    closed: Promise<void>
  }>((resolve, reject) => {
    const sent = request(
      {
        port,
        method: 'POST',
        path: `/projects/slug/full-disk/deployments/${id}/files/batch`,
        headers: {
          ...bearer(token),
          ...body.headers,
          'content-length': body.payload.length,
          host: 'localhost:8080',
        },
        agent,
      },
      (incoming) => {
        const socket = incoming.socket
        const closed = new Promise<void>((done) => socket.once('close', () => done()))
        let text = ''
        incoming.on('data', (chunk: Buffer) => (text += chunk))
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text, closed }),
        )
      },
    )
    sent.on('error', reject)
    sent.end(body.payload)
  })
  assert.equal(response.status, 507)
  assert.equal(response.headers.connection, 'close')
  assert.match(JSON.parse(response.text).error, /out of storage space/)
  await response.closed
  // The server still answers on a new connection.
  const health = await app.inject({
    url: `/projects/slug/full-disk/deployments/${id}`,
    headers: bearer(token),
  })
  assert.equal(health.json().status, 'uploading')
})
