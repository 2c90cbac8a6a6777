import assert from 'node:assert/strict'
import { type AddressInfo, createServer } from 'node:net'
import { test } from 'node:test'
import {
  Browser,
  buildTestApp,
  callbackParams,
  codeGrant,
  exchangeCode,
  PUBLIC_URL,
  startCliLogin,
} from '../auth/harness.js'
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, oidcTestApp, signInAtIssuer } from '../auth/oidc-issuer.js'

const CALLBACK = `${PUBLIC_URL}/oauth/callback`

test('the full PKCE sign-in against a real OpenID Connect provider issues tokens for its verified email', async (t) => {
  const { app, issuer } = await oidcTestApp(t)
  const login = startCliLogin()
  const browser = new Browser(app)

  const authorize = await browser.request('GET', login.authorizeUrl)
  assert.equal(authorize.status, 302)
  const upstream = new URL(authorize.location ?? '')
  assert.equal(upstream.origin, issuer)
  assert.equal(upstream.searchParams.get('client_id'), OIDC_CLIENT_ID)
  assert.equal(upstream.searchParams.get('redirect_uri'), CALLBACK)
  assert.equal(upstream.searchParams.get('code_challenge_method'), 'S256')
  // The CLI's own state and challenge never leave this server.
  assert.notEqual(upstream.searchParams.get('state'), login.state)
  assert.notEqual(upstream.searchParams.get('code_challenge'), login.challenge)

  const back = await signInAtIssuer(browser, login, 'ada')
  assert.ok(back.location?.startsWith(login.redirectUri), `ended at ${back.url}: ${back.status} ${back.body}`)
  const params = callbackParams(back.location)
  assert.equal(params.get('state'), login.state)
  assert.ok(browser.visited.some((url) => url.startsWith(CALLBACK)))

  const tokens = await exchangeCode(app, codeGrant(login, params.get('code') ?? ''))
  assert.equal(tokens.status, 200, JSON.stringify(tokens.json))
  const me = await app.inject({
    method: 'GET',
    url: '/me',
    headers: { host: 'localhost:8080', authorization: `Bearer ${tokens.json.access_token}` },
  })
  assert.equal(me.statusCode, 200)
  assert.equal(me.json().email, 'ada@example.org')
  assert.equal(me.json().name, 'Test ada')
})

test('an unverified email at the provider is refused and the CLI is told why', async (t) => {
  const { app } = await oidcTestApp(t)
  const login = startCliLogin()
  const back = await signInAtIssuer(new Browser(app), login, 'unverified-bob')
  const params = callbackParams(back.location)
  assert.equal(params.get('error'), 'access_denied')
  assert.match(
    params.get('error_description') ?? '',
    /not verified the email address unverified-bob@example.org/,
  )
  assert.equal(params.get('state'), login.state)
  assert.equal(params.get('code'), null)
})

test('a callback whose state matches no pending sign-in is refused', async (t) => {
  const { app } = await oidcTestApp(t)
  const login = startCliLogin()
  const browser = new Browser(app)
  await browser.request('GET', login.authorizeUrl)
  const forged = await browser.request('GET', `${CALLBACK}?code=stolen&state=not-a-sign-in`)
  assert.equal(forged.status, 400)
  assert.match(forged.body, /unknown, expired or was already used/)
})

test('the local sign-in page is off when an identity provider is configured', async (t) => {
  const { app } = await oidcTestApp(t)
  const page = await app.inject({
    method: 'GET',
    url: '/oauth/sign-in?request=x',
    headers: { host: 'localhost:8080' },
  })
  assert.equal(page.statusCode, 404)
})

test('an unreachable issuer shows why sign-in is unavailable', async (t) => {
  // A port that was free a moment ago: nothing listens there.
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  const { app } = await buildTestApp(t, {
    signIn: {
      oidcIssuer: `http://127.0.0.1:${port}`,
      oidcClientId: OIDC_CLIENT_ID,
      oidcClientSecret: OIDC_CLIENT_SECRET,
    },
  })
  const login = startCliLogin()
  const response = await new Browser(app).request('GET', login.authorizeUrl)
  assert.equal(response.status, 502)
  assert.match(response.body, /could not be reached/)
  assert.equal(response.location, undefined)
})
