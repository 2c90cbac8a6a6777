import assert from 'node:assert/strict'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import {
  Browser,
  buildTestApp,
  type CliLogin,
  callbackParams,
  codeGrant,
  exchangeCode,
  localSignInCode,
  PUBLIC_URL,
  readForm,
  signInLocally,
  startCliLogin,
} from '../auth/harness.js'
import { engines } from '../helper.js'

const host = 'localhost:8080'

/** The CLI's authorize request, sent without a browser. */
const authorize = (app: FastifyInstance, login: CliLogin) =>
  app.inject({ method: 'GET', url: login.authorizeUrl.slice(PUBLIC_URL.length), headers: { host } })

const me = (app: FastifyInstance, token: string) =>
  app.inject({ method: 'GET', url: '/me', headers: { host, authorization: `Bearer ${token}` } })

test('RFC 8414 metadata names every endpoint and only S256', async (t) => {
  const { app } = await buildTestApp(t)
  const response = await app.inject({
    method: 'GET',
    url: '/.well-known/oauth-authorization-server',
    headers: { host },
  })
  assert.equal(response.statusCode, 200)
  assert.deepEqual(response.json(), {
    issuer: PUBLIC_URL,
    authorization_endpoint: `${PUBLIC_URL}/oauth/authorize`,
    token_endpoint: `${PUBLIC_URL}/oauth/token`,
    revocation_endpoint: `${PUBLIC_URL}/oauth/revoke`,
    userinfo_endpoint: `${PUBLIC_URL}/me`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
  })
})

test('metadata follows a loopback host at any port, and otherwise only the configured public URL', async (t) => {
  const { app } = await buildTestApp(t, {
    config: { apiHost: 'api.docs.example' },
    signIn: { publicUrl: 'https://api.docs.example' },
  })
  const issuerFor = async (hostHeader: string) =>
    (
      await app.inject({ url: '/.well-known/oauth-authorization-server', headers: { host: hostHeader } })
    ).json().issuer
  assert.equal(await issuerFor('api.docs.example'), 'https://api.docs.example')
  assert.equal(await issuerFor('127.0.0.1:9123'), 'http://127.0.0.1:9123')
  // A bare address reaches the API too; a non-loopback one cannot choose the issuer.
  assert.equal(await issuerFor('10.1.2.3:8080'), 'https://api.docs.example')
})

test('authorize shows, never redirects, errors about the client or its redirect URI', async (t) => {
  const { app } = await buildTestApp(t)
  for (const [override, message] of [
    [{ client_id: 'someone-else' }, /Unknown client_id/],
    [{ redirect_uri: 'https://attacker.example/callback' }, /loopback/],
    [{ redirect_uri: 'http://evil.example:8787/callback' }, /127\.0\.0\.1/],
    [{ redirect_uri: 'http://127.0.0.1:8787/callback#fragment' }, /fragment/],
  ] as const) {
    const login = startCliLogin(override)
    const response = await authorize(app, login)
    assert.equal(response.statusCode, 400, JSON.stringify(override))
    assert.equal(response.headers.location, undefined)
    assert.match(response.body, message)
  }
})

test('authorize sends other request errors back to the CLI with its state', async (t) => {
  const { app } = await buildTestApp(t)
  for (const [override, error] of [
    [{ code_challenge_method: 'plain' }, 'invalid_request'],
    [{ code_challenge: 'too-short' }, 'invalid_request'],
    [{ response_type: 'token' }, 'unsupported_response_type'],
  ] as const) {
    const login = startCliLogin(override)
    const response = await authorize(app, login)
    assert.equal(response.statusCode, 302)
    const params = callbackParams(String(response.headers.location))
    assert.equal(params.get('error'), error)
    assert.equal(params.get('state'), login.state)
    assert.ok(String(response.headers.location).startsWith(login.redirectUri))
  }
  const noState = startCliLogin({ state: '' })
  const response = await app.inject({
    method: 'GET',
    url: noState.authorizeUrl.slice(PUBLIC_URL.length),
    headers: { host },
  })
  assert.equal(callbackParams(String(response.headers.location)).get('error'), 'invalid_request')
})

for (const engine of engines) {
  test(`a wrong code verifier is invalid_grant, and the code is spent (${engine})`, async (t) => {
    const { app } = await buildTestApp(t, { engine })
    const { login, code } = await localSignInCode(app, 'ada@example.com')
    const wrong = await exchangeCode(app, codeGrant(login, code, { code_verifier: startCliLogin().verifier }))
    assert.equal(wrong.status, 400)
    assert.equal(wrong.json.error, 'invalid_grant')
    assert.match(String(wrong.json.error_description), /code_verifier does not match/)
    const retry = await exchangeCode(app, codeGrant(login, code))
    assert.equal(retry.json.error, 'invalid_grant')
  })
}

test('a malformed or missing verifier is invalid_request', async (t) => {
  const { app } = await buildTestApp(t)
  const { login, code } = await localSignInCode(app, 'ada@example.com')
  const short = await exchangeCode(app, codeGrant(login, code, { code_verifier: 'short' }))
  assert.equal(short.status, 400)
  assert.equal(short.json.error, 'invalid_request')
  const { code_verifier: _omitted, ...without } = codeGrant(login, code)
  const missing = await exchangeCode(app, without)
  assert.equal(missing.json.error, 'invalid_request')
})

for (const engine of engines) {
  test(`a reused code is refused and revokes the tokens its first use produced (${engine})`, async (t) => {
    const { app } = await buildTestApp(t, { engine })
    const { login, code } = await localSignInCode(app, 'ada@example.com')
    const first = await exchangeCode(app, codeGrant(login, code), 'json')
    assert.equal(first.status, 200)
    assert.equal((await me(app, String(first.json.access_token))).statusCode, 200)
    const second = await exchangeCode(app, codeGrant(login, code))
    assert.equal(second.status, 400)
    assert.equal(second.json.error, 'invalid_grant')
    assert.match(String(second.json.error_description), /already been used/)
    assert.equal((await me(app, String(first.json.access_token))).statusCode, 401)
    const refresh = await exchangeCode(app, {
      grant_type: 'refresh_token',
      refresh_token: String(first.json.refresh_token),
    })
    assert.equal(refresh.json.error, 'invalid_grant')
  })
}

test('a redirect URI other than the authorization request’s is refused', async (t) => {
  const { app } = await buildTestApp(t)
  const { login, code } = await localSignInCode(app, 'ada@example.com')
  const response = await exchangeCode(
    app,
    codeGrant(login, code, { redirect_uri: 'http://127.0.0.1:1/elsewhere' }),
  )
  assert.equal(response.status, 400)
  assert.equal(response.json.error, 'invalid_grant')
  assert.match(String(response.json.error_description), /redirect_uri does not match/)
})

for (const engine of engines) {
  test(`an expired code is refused (${engine})`, async (t) => {
    const { app } = await buildTestApp(t, { engine })
    const { login, code } = await localSignInCode(app, 'ada@example.com')
    // Age every code past its 60 s lifetime rather than wait for it.
    await app.db
      .updateTable('oauth_codes')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute()
    const response = await exchangeCode(app, codeGrant(login, code))
    assert.equal(response.status, 400)
    assert.equal(response.json.error, 'invalid_grant')
    assert.match(String(response.json.error_description), /expired/)
  })
}

test('a code, a state or a sign-in page from someone else’s flow does not complete another', async (t) => {
  const { app } = await buildTestApp(t)
  const browser = new Browser(app)
  const login = startCliLogin()
  const page = await browser.navigate(login.authorizeUrl, login.redirectUri)
  const form = readForm(page.body)
  const postSignIn = (fields: Record<string, string>) =>
    browser.request('POST', `${PUBLIC_URL}/oauth/sign-in`, fields)
  // The form posted without the browser's cookie (a cross-site post) is refused.
  const forged = await app.inject({
    method: 'POST',
    url: '/oauth/sign-in',
    headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...form.fields, email: 'mallory@example.com' }).toString(),
  })
  assert.equal(forged.statusCode, 403)
  // A wrong anti-forgery value with the right cookie is refused too.
  const wrongToken = await postSignIn({ ...form.fields, csrf: 'x'.repeat(32), email: 'mallory@example.com' })
  assert.equal(wrongToken.status, 403)
  // An unknown pending sign-in is refused.
  const unknown = await postSignIn({ ...form.fields, request: 'nope', email: 'mallory@example.com' })
  assert.equal(unknown.status, 400)
  // A bad email re-shows the form with the error, and the flow still completes afterwards.
  const badEmail = await postSignIn({ ...form.fields, email: 'not an email' })
  assert.equal(badEmail.status, 400)
  assert.match(badEmail.body, /role="alert"/)
  const again = readForm(badEmail.body)
  const done = await postSignIn({ ...again.fields, email: 'ada@example.com' })
  assert.equal(done.status, 303)
  // The completed sign-in cannot be completed a second time.
  const replay = await postSignIn({ ...again.fields, email: 'x@example.com' })
  assert.equal(replay.status, 400)
})

for (const engine of engines) {
  test(`refresh tokens rotate, and replaying a rotated one revokes the whole sign-in (${engine})`, async (t) => {
    const { app } = await buildTestApp(t, { engine })
    const first = await signInLocally(app, 'ada@example.com')
    const rotated = await exchangeCode(app, {
      grant_type: 'refresh_token',
      refresh_token: first.refreshToken,
    })
    assert.equal(rotated.status, 200, JSON.stringify(rotated.json))
    const second = { access: String(rotated.json.access_token), refresh: String(rotated.json.refresh_token) }
    assert.notEqual(second.refresh, first.refreshToken)
    assert.equal((await me(app, second.access)).statusCode, 200)

    const replay = await exchangeCode(app, { grant_type: 'refresh_token', refresh_token: first.refreshToken })
    assert.equal(replay.status, 400)
    assert.equal(replay.json.error, 'invalid_grant')
    assert.match(String(replay.json.error_description), /already used/)
    // The family is gone: the newest refresh token and every access token of this sign-in stop working.
    const next = await exchangeCode(app, { grant_type: 'refresh_token', refresh_token: second.refresh })
    assert.equal(next.json.error, 'invalid_grant')
    assert.equal((await me(app, second.access)).statusCode, 401)
    assert.equal((await me(app, first.accessToken)).statusCode, 401)
  })
}

for (const engine of engines) {
  test(`a sign-in elsewhere is not touched by revoking another one (${engine})`, async (t) => {
    const { app } = await buildTestApp(t, { engine })
    const laptop = await signInLocally(app, 'ada@example.com')
    const desktop = await signInLocally(app, 'ada@example.com')
    const revoke = await app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${laptop.refreshToken}`,
    })
    assert.equal(revoke.statusCode, 200)
    assert.equal((await me(app, laptop.accessToken)).statusCode, 401)
    assert.equal((await me(app, desktop.accessToken)).statusCode, 200)
    const refresh = await exchangeCode(app, {
      grant_type: 'refresh_token',
      refresh_token: laptop.refreshToken,
    })
    assert.equal(refresh.json.error, 'invalid_grant')
    // Revoking an access token ends that sign-in; unknown tokens answer the same 200.
    for (const token of [desktop.accessToken, 'dsr_unknown', 'garbage']) {
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/revoke',
        headers: { host },
        payload: { token },
      })
      assert.equal(response.statusCode, 200)
    }
    assert.equal((await me(app, desktop.accessToken)).statusCode, 401)
    const missing = await app.inject({ method: 'POST', url: '/oauth/revoke', headers: { host }, payload: {} })
    assert.equal(missing.statusCode, 400)
    assert.equal(missing.json().error, 'invalid_request')
  })
}

for (const engine of engines) {
  test(`tokens of a deleted user are refused (${engine})`, async (t) => {
    const { app } = await buildTestApp(t, { engine })
    const session = await signInLocally(app, 'ada@example.com')
    const user = (await me(app, session.accessToken)).json()
    // Deleting the user takes their tokens and refresh tokens with it (foreign keys cascade).
    await app.db.deleteFrom('users').where('id', '=', user.id).execute()
    assert.equal((await me(app, session.accessToken)).statusCode, 401)
    const refresh = await exchangeCode(app, {
      grant_type: 'refresh_token',
      refresh_token: session.refreshToken,
    })
    assert.equal(refresh.status, 400)
    assert.equal(refresh.json.error, 'invalid_grant')
  })
}

test('the token endpoint refuses unknown clients, grants and malformed bodies with OAuth errors', async (t) => {
  const { app } = await buildTestApp(t)
  const cases: [Record<string, string>, number, string][] = [
    [
      {
        grant_type: 'authorization_code',
        client_id: 'other',
        code: 'x',
        redirect_uri: 'x',
        code_verifier: 'x',
      },
      401,
      'invalid_client',
    ],
    [{ grant_type: 'password', username: 'a', password: 'b' }, 400, 'unsupported_grant_type'],
    [{ grant_type: 'refresh_token', refresh_token: 'dsr_not-a-real-token' }, 400, 'invalid_grant'],
    [{ grant_type: 'refresh_token' }, 400, 'invalid_request'],
    [{}, 400, 'invalid_request'],
    [
      { grant_type: 'authorization_code', client_id: 'docsctl', code: 'x'.repeat(5000) },
      400,
      'invalid_request',
    ],
  ]
  for (const [body, status, error] of cases) {
    const response = await exchangeCode(app, body)
    assert.equal(response.status, status, JSON.stringify(body))
    assert.equal(response.json.error, error, JSON.stringify(body))
  }
  const notJson = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { host, 'content-type': 'application/json' },
    payload: '{"grant_type":',
  })
  assert.equal(notJson.statusCode, 400)
})

test('oversized credentials are refused: 401 for a huge bearer token, 431 for huge headers on the socket', async (t) => {
  const { app } = await buildTestApp(t)
  const huge = await me(app, `dsa_${'A'.repeat(10_000)}`)
  assert.equal(huge.statusCode, 401)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  const status = await new Promise<number>((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/me',
        headers: { host, authorization: `Bearer dsa_${'A'.repeat(20_000)}` },
      },
      (response) => {
        response.resume()
        resolve(response.statusCode ?? 0)
      },
    )
    request.on('error', reject)
    request.end()
  })
  assert.equal(status, 431)
})

test('the token endpoint is rate limited per IP against guessing', async (t) => {
  const { app } = await buildTestApp(t, { signIn: { rateLimitPerMinute: 5 } })
  const statuses: number[] = []
  for (let attempt = 0; attempt < 7; attempt++) {
    const response = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        host,
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Bearer dsa_${attempt}`,
      },
      payload: 'grant_type=refresh_token&refresh_token=dsr_guess',
    })
    statuses.push(response.statusCode)
    if (response.statusCode === 429) assert.ok(response.headers['retry-after'])
  }
  assert.deepEqual(statuses, [400, 400, 400, 400, 400, 429, 429])
  // Each sign-in endpoint counts on its own.
  const pages: number[] = []
  for (let attempt = 0; attempt < 6; attempt++) {
    pages.push(
      (await app.inject({ method: 'GET', url: '/oauth/sign-in?request=x', headers: { host } })).statusCode,
    )
  }
  assert.deepEqual(pages, [400, 400, 400, 400, 400, 429])
})
