import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { test } from 'node:test'
import { ApiClient, ApiError, NetworkError, retryAfterMs } from '../../cli/api.js'

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void

/** A real HTTP server on a random port whose answers follow a script, one handler per request. */
async function scriptedServer(t: { after: (fn: () => Promise<void>) => void }, handlers: Handler[]) {
  const seen: { method: string; url: string; authorization: string | undefined; body: string }[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
        body,
      })
      const handler = handlers[seen.length - 1]
      if (!handler) response.writeHead(500).end('{"error":"unexpected request"}')
      else handler(request, response, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const address = server.address()
  assert.ok(typeof address === 'object' && address)
  return { url: `http://127.0.0.1:${address.port}`, seen }
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))
  }

const user = { id: 'usr_1', email: 'ada@example.com', name: null }

test('502, 503, 504 and 429 are retried, honouring Retry-After', async (t) => {
  const server = await scriptedServer(t, [
    json(503, { error: 'starting' }),
    json(429, { error: 'slow down' }, { 'retry-after': '0' }),
    json(502, { error: 'bad gateway' }),
    json(200, user),
  ])
  const client = new ApiClient({ apiUrl: `${server.url}/`, token: () => 'dsa_x', backoffMs: 1 })
  assert.deepEqual(await client.me(), user)
  assert.equal(server.seen.length, 4)
  assert.ok(server.seen.every((request) => request.authorization === 'Bearer dsa_x' && request.url === '/me'))
})

test('after the last attempt, the error status and message reach the caller', async (t) => {
  const server = await scriptedServer(t, [json(503, { error: 'down' }), json(503, { error: 'still down' })])
  const client = new ApiClient({ apiUrl: server.url, attempts: 2, backoffMs: 1 })
  await assert.rejects(
    client.me(),
    (error: Error) => error instanceof ApiError && error.status === 503 && error.message === 'still down',
  )
})

test('error bodies keep their issues, and a non-JSON error still reads well', async (t) => {
  const server = await scriptedServer(t, [
    json(400, { error: 'Invalid project', issues: [{ path: 'slug', message: 'reserved word' }] }),
    (_request, response) => {
      response.writeHead(500, { 'content-type': 'text/html' }).end('<h1>oops</h1>')
    },
  ])
  const client = new ApiClient({ apiUrl: server.url, attempts: 1 })
  await assert.rejects(client.createProject({ name: 'A', slug: 'api' }), (error: Error) => {
    assert.ok(error instanceof ApiError)
    assert.equal(error.describe(), 'Invalid project\n  slug: reserved word')
    return true
  })
  assert.deepEqual(JSON.parse(server.seen[0]!.body), { name: 'A', slug: 'api' })
  await assert.rejects(
    client.me(),
    (error: Error) => error instanceof ApiError && /answered 500/.test(error.message),
  )
})

test('a 401 refreshes the session once and repeats the request with the new token', async (t) => {
  const server = await scriptedServer(t, [json(401, { error: 'expired' }), json(200, user)])
  let token = 'dsa_old'
  let refreshes = 0
  const client = new ApiClient({
    apiUrl: server.url,
    token: () => token,
    refresh: async () => {
      refreshes++
      token = 'dsa_new'
      return token
    },
  })
  assert.deepEqual(await client.me(), user)
  assert.equal(refreshes, 1)
  assert.deepEqual(
    server.seen.map((request) => request.authorization),
    ['Bearer dsa_old', 'Bearer dsa_new'],
  )
})

test('a 401 that no refresh can fix is reported, without looping', async (t) => {
  const server = await scriptedServer(t, [json(401, { error: 'expired' }), json(401, { error: 'expired' })])
  let refreshes = 0
  const client = new ApiClient({
    apiUrl: server.url,
    token: () => 'dsa_x',
    refresh: async () => {
      refreshes++
      return refreshes === 1 ? 'dsa_y' : undefined
    },
  })
  await assert.rejects(client.me(), (error: Error) => error instanceof ApiError && error.status === 401)
  assert.equal(refreshes, 1)
  assert.equal(server.seen.length, 2)
})

test('an unreachable server is a NetworkError that names the address', async () => {
  const client = new ApiClient({ apiUrl: 'http://127.0.0.1:9', attempts: 2, backoffMs: 1 })
  await assert.rejects(
    client.me(),
    (error: Error) =>
      error instanceof NetworkError &&
      error.message.includes('http://127.0.0.1:9') &&
      /--api-url/.test(error.message),
  )
})

test('finalize answers 202 and 422 as values, 404 on a slug lookup as undefined', async (t) => {
  const deployment = { id: 'dpl_1', status: 'building' }
  const server = await scriptedServer(t, [
    json(202, deployment),
    json(422, { error: 'Build failed', deployment: { ...deployment, status: 'failed' } }),
    json(404, { error: 'Not found' }),
  ])
  const client = new ApiClient({ apiUrl: server.url })
  const building = await client.finalize('docs', 'dpl_1', { promote: true })
  assert.equal(building.status, 202)
  assert.equal(building.deployment.status, 'building')
  const failed = await client.finalize('docs', 'dpl_1', {})
  assert.equal(failed.status, 422)
  assert.equal(failed.error, 'Build failed')
  assert.equal(failed.deployment.status, 'failed')
  assert.equal(await client.findProjectBySlug('nope'), undefined)
  assert.equal(server.seen[0]!.url, '/projects/slug/docs/deployments/dpl_1/finalize')
})

test('Retry-After reads seconds and HTTP dates', () => {
  assert.equal(retryAfterMs('3'), 3000)
  assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 4_000), 6000)
  assert.equal(retryAfterMs('soon'), undefined)
  assert.equal(retryAfterMs(null), undefined)
})
