import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  Browser,
  buildTestApp,
  callbackParams,
  codeGrant,
  exchangeCode,
  PUBLIC_URL,
  readForm,
  signInLocally,
  startCliLogin,
} from '../auth/harness.js'

test('the local provider signs a user in through its page, like a browser, and /me names them', async (t) => {
  const { app } = await buildTestApp(t)
  const login = startCliLogin()
  const browser = new Browser(app)

  const authorize = await browser.request('GET', login.authorizeUrl)
  assert.equal(authorize.status, 302)
  assert.ok(authorize.location?.startsWith(`${PUBLIC_URL}/oauth/sign-in?request=`))

  const page = await browser.request('GET', authorize.location ?? '')
  assert.equal(page.status, 200)
  assert.match(page.headers['content-type'] ?? '', /text\/html/)
  assert.match(page.headers['content-security-policy'] ?? '', /frame-ancestors 'none'/)
  // The form may lead only here and to this CLI's listener.
  assert.ok(
    page.headers['content-security-policy']?.endsWith(
      `form-action 'self' ${new URL(login.redirectUri).origin}`,
    ),
  )
  assert.match(page.body, /<label for="email">Email<\/label>/)
  const form = readForm(page.body)
  assert.equal(form.action, '/oauth/sign-in')
  assert.ok(form.fields.csrf && form.fields.request)

  const back = await browser.request('POST', `${PUBLIC_URL}${form.action}`, {
    ...form.fields,
    email: 'Ada@Example.com',
  })
  assert.equal(back.status, 303)
  const params = callbackParams(back.location)
  assert.ok(back.location?.startsWith(login.redirectUri))
  assert.equal(params.get('state'), login.state)
  assert.match(params.get('code') ?? '', /^dsc_/)

  const tokens = await exchangeCode(app, codeGrant(login, params.get('code') ?? ''))
  assert.equal(tokens.status, 200, JSON.stringify(tokens.json))
  assert.equal(tokens.headers['cache-control'], 'no-store')
  assert.equal(tokens.json.token_type, 'Bearer')
  assert.equal(tokens.json.expires_in, 3600)
  assert.match(String(tokens.json.access_token), /^dsa_[A-Za-z0-9_-]{43}$/)
  assert.match(String(tokens.json.refresh_token), /^dsr_[A-Za-z0-9_-]{43}$/)

  const me = await app.inject({
    method: 'GET',
    url: '/me',
    headers: { host: 'localhost:8080', authorization: `Bearer ${tokens.json.access_token}` },
  })
  assert.equal(me.statusCode, 200)
  assert.deepEqual(Object.keys(me.json()).sort(), ['email', 'id', 'name'])
  assert.equal(me.json().email, 'ada@example.com')
  assert.match(me.json().id, /^usr_/)
})

test('signing in twice with the same email is the same user', async (t) => {
  const { app } = await buildTestApp(t)
  const first = await signInLocally(app, 'grace@example.com')
  const second = await signInLocally(app, 'GRACE@example.com')
  const whoami = async (token: string) =>
    (
      await app.inject({
        method: 'GET',
        url: '/me',
        headers: { host: 'localhost:8080', authorization: `Bearer ${token}` },
      })
    ).json().id
  assert.equal(await whoami(first.accessToken), await whoami(second.accessToken))
})

test('without a provider, a server on a non-loopback address refuses to sign anyone in', async (t) => {
  const { app } = await buildTestApp(t, { config: { host: '0.0.0.0' } })
  const login = startCliLogin()
  const response = await app.inject({
    url: login.authorizeUrl.slice(PUBLIC_URL.length),
    headers: { host: 'localhost:8080' },
  })
  assert.equal(response.statusCode, 503)
  assert.match(response.body, /no identity provider is configured/)
  const page = await app.inject({
    url: '/oauth/sign-in?request=anything',
    headers: { host: 'localhost:8080' },
  })
  assert.equal(page.statusCode, 404)
})
