import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { CommandFailure } from '../../../cli/auth/failure.js'
import { defaultApiUrl, discover, requireSession, resolveApiUrl } from '../../../cli/auth/session.js'
import { type StoredSession, writeSession } from '../../../cli/credentials.js'

const session: StoredSession = {
  apiUrl: 'http://127.0.0.1:9',
  accessToken: 'dsa_x',
  refreshToken: null,
  expiresAt: null,
  tokenEndpoint: 'http://127.0.0.1:9/oauth/token',
  email: 'ada@example.com',
}

test('the API address: --api-url, then DOCSCTL_API_URL, then the session, then the default', () => {
  assert.equal(
    resolveApiUrl('https://a.example/', { DOCSCTL_API_URL: 'https://b.example' }, session),
    'https://a.example',
  )
  assert.equal(
    resolveApiUrl(undefined, { DOCSCTL_API_URL: 'https://b.example' }, session),
    'https://b.example',
  )
  assert.equal(resolveApiUrl(undefined, {}, session), 'http://127.0.0.1:9')
  assert.equal(resolveApiUrl(undefined, {}), defaultApiUrl)
  assert.throws(
    () => resolveApiUrl('ftp://x', {}),
    (error: Error) => error instanceof CommandFailure && /--api-url/.test(error.message),
  )
})

test('no session, a session for another server, an expired one without refresh: each says to log in', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'docsctl-session-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  const env = { DOCSCTL_CONFIG_DIR: dir }
  await assert.rejects(requireSession(undefined, env), /You are not signed in\. Run `docsctl login` first\./)
  await writeSession(session, env)
  await assert.rejects(
    requireSession('https://docs-api.example.com', env),
    /signed in to http:\/\/127\.0\.0\.1:9, not https:\/\/docs-api\.example\.com\. Run `docsctl login --api-url https:\/\/docs-api\.example\.com` first/,
  )
  await writeSession({ ...session, expiresAt: '2000-01-01T00:00:00.000Z' }, env)
  await assert.rejects(
    requireSession(undefined, env),
    /Your session has expired\. Run `docsctl login --api-url http:\/\/127\.0\.0\.1:9`/,
  )
})

test('discovery on a server that is not a docs server says so', async (t) => {
  const server = createServer((_request, response) => {
    response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const address = server.address()
  assert.ok(typeof address === 'object' && address)
  await assert.rejects(
    discover(`http://127.0.0.1:${address.port}`),
    (error: Error) =>
      error instanceof CommandFailure &&
      /is not a docs server that offers sign-in \(its OAuth metadata answered 404\)/.test(error.message),
  )
})
