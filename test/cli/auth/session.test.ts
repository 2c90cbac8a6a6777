import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { misspeltApiUrl, NetworkError } from '../../../cli/api.js'
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
  // Another server that answers: the session is not for it.
  const other = createServer((_request, response) => response.end('{}'))
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => other.close(() => resolve())))
  const otherUrl = `http://127.0.0.1:${(other.address() as { port: number }).port}`
  await assert.rejects(
    requireSession(otherUrl, env),
    new RegExp(
      `signed in to http://127\\.0\\.0\\.1:9, not ${otherUrl.replaceAll('.', '\\.')}\\. Run \`docsctl login --api-url ${otherUrl.replaceAll('.', '\\.')}\` first`,
    ),
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

test('parallel requests refused with one expired token refresh the session once, not once each', async (t) => {
  // A token endpoint that rotates refresh tokens and treats a second use of one as a replay, as the
  // server does; the API answers 401 to anything but the newest access token.
  // The stored access token has expired on the server: none is valid until a refresh issues one.
  let current = { access: '', refresh: 'dsr_1' }
  let refreshes = 0
  let replays = 0
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      if (request.url === '/oauth/token') {
        const form = new URLSearchParams(body.startsWith('{') ? Object.entries(JSON.parse(body)) : body)
        if (form.get('refresh_token') !== current.refresh) {
          replays++
          response.writeHead(400, { 'content-type': 'application/json' })
          response.end(JSON.stringify({ error: 'invalid_grant' }))
          return
        }
        refreshes++
        current = { access: `dsa_new${refreshes}`, refresh: `dsr_${refreshes + 1}` }
        // Slow enough that every parallel request is refused before the refresh answers.
        setTimeout(() => {
          response.writeHead(200, { 'content-type': 'application/json' })
          response.end(
            JSON.stringify({
              access_token: current.access,
              token_type: 'Bearer',
              expires_in: 3600,
              refresh_token: current.refresh,
            }),
          )
        }, 50)
        return
      }
      const ok = request.headers.authorization === `Bearer ${current.access}`
      response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify(ok ? { id: 'u', email: 'ada@example.com', name: null } : { error: 'expired' }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const address = server.address()
  assert.ok(typeof address === 'object' && address)
  const apiUrl = `http://127.0.0.1:${address.port}`
  const dir = await mkdtemp(join(tmpdir(), 'docsctl-session-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  const env = { DOCSCTL_CONFIG_DIR: dir }
  await writeSession(
    {
      ...session,
      apiUrl,
      accessToken: 'dsa_old',
      refreshToken: 'dsr_1',
      tokenEndpoint: `${apiUrl}/oauth/token`,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
    env,
  )
  const signedIn = await requireSession(apiUrl, env)
  const answers = await Promise.all(Array.from({ length: 6 }, () => signedIn.client.request('GET', '/me')))
  assert.deepEqual(
    answers.map((answer) => answer.status),
    [200, 200, 200, 200, 200, 200],
  )
  assert.equal(refreshes, 1)
  assert.equal(replays, 0)
  assert.equal(signedIn.session.refreshToken, 'dsr_2')
})

test('an --api-url nothing answers at says it cannot be reached, with a did-you-mean for a misspelt host, not "sign in"', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'docsctl-session-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  const env = { DOCSCTL_CONFIG_DIR: dir }
  await writeSession(session, env)
  await assert.rejects(requireSession('http://locahost:8080', env), (error: Error) => {
    assert.ok(error instanceof NetworkError)
    assert.match(
      error.message,
      /^Cannot reach the docs server at http:\/\/locahost:8080 \(\w+\)\. Did you mean http:\/\/localhost:8080\?/,
    )
    return true
  })
  // Nothing signed in and nothing listening: still "cannot reach", not "you are not signed in".
  await rm(join(dir, 'credentials.json'))
  await assert.rejects(
    requireSession('http://127.0.0.1:9', env),
    /Cannot reach the docs server at http:\/\/127\.0\.0\.1:9 /,
  )
})

test('misspeltApiUrl suggests localhost or the signed-in host only for a near miss', () => {
  assert.equal(misspeltApiUrl('http://locahost:8080'), 'http://localhost:8080')
  assert.equal(
    misspeltApiUrl('https://docs-api.exmaple.com/', ['docs-api.example.com']),
    'https://docs-api.example.com',
  )
  assert.equal(misspeltApiUrl('http://localhost:8080'), undefined)
  assert.equal(misspeltApiUrl('https://api.example.org'), undefined)
})
