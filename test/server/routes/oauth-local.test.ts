import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
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

test('a server on loopback with a public API host or public URL does not offer the local form', async (t) => {
  for (const [setting, host] of [
    [
      { config: { apiHost: 'api.docs.example' }, signIn: { publicUrl: 'https://api.docs.example' } },
      'api.docs.example',
    ],
    [{ signIn: { publicUrl: 'https://docs.example.com' } }, 'localhost:8080'],
  ] as const) {
    const { app } = await buildTestApp(t, setting)
    const login = startCliLogin()
    const response = await app.inject({ url: login.authorizeUrl.slice(PUBLIC_URL.length), headers: { host } })
    assert.equal(response.statusCode, 503, JSON.stringify(setting))
    assert.match(response.body, /which is not loopback/)
    const page = await app.inject({ url: '/oauth/sign-in?request=anything', headers: { host } })
    assert.equal(page.statusCode, 404)
  }
})

test('the local form refuses a request that came through a proxy (a forwarding header)', async (t) => {
  const { app } = await buildTestApp(t)
  const login = startCliLogin()
  for (const header of [
    'forwarded',
    'x-forwarded-for',
    'x-forwarded-host',
    'x-forwarded-proto',
    'x-real-ip',
  ]) {
    const authorize = await app.inject({
      url: login.authorizeUrl.slice(PUBLIC_URL.length),
      headers: {
        host: 'localhost:8080',
        [header]: header === 'forwarded' ? 'for=203.0.113.9' : '203.0.113.9',
      },
    })
    assert.equal(authorize.statusCode, 403, header)
    assert.match(authorize.body, new RegExp(`came through a proxy \\(it carries ${header}\\)`))
  }

  // A sign-in started directly cannot be finished through the proxy either.
  const browser = new Browser(app)
  const started = await browser.request('GET', login.authorizeUrl)
  assert.equal(started.status, 302)
  const proxied = await app.inject({
    url: started.location!.slice(PUBLIC_URL.length),
    headers: { host: 'localhost:8080', 'x-forwarded-for': '203.0.113.9' },
  })
  assert.equal(proxied.statusCode, 403)
  const page = await browser.request('GET', started.location ?? '')
  const form = readForm(page.body)
  const submitted = await app.inject({
    method: 'POST',
    url: form.action ?? '/oauth/sign-in',
    headers: {
      host: 'localhost:8080',
      'content-type': 'application/x-www-form-urlencoded',
      'x-real-ip': '203.0.113.9',
      cookie: `docs_sign_in=${form.fields.csrf}`,
    },
    payload: new URLSearchParams({ ...form.fields, email: 'mallory@example.com' }).toString(),
  })
  assert.equal(submitted.statusCode, 403)
  assert.equal(await app.repos.users.findByEmail('mallory@example.com'), undefined)
})

test('the start-up log says whether local sign-in is on and why', async (t) => {
  const lines: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  await buildTestApp(t, { logger: { level: 'info', stream: sink } })
  assert.ok(lines.some((line) => /Sign-in: local provider .*listens on loopback 127\.0\.0\.1/.test(line)))
  lines.length = 0
  await buildTestApp(t, {
    config: { apiHost: 'api.docs.example' },
    signIn: { publicUrl: 'https://api.docs.example' },
    logger: { level: 'info', stream: sink },
  })
  assert.ok(lines.some((line) => /Sign-in: disabled, because .*the API host api\.docs\.example/.test(line)))
})
