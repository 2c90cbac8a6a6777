/**
 * Dashboard sessions without a browser: the sign-in through the server's own authorization server,
 * the cookie's attributes and its hash in the database, the CSRF header, rotation, sign-out, idle and
 * absolute expiry, and the dashboard's code kept apart from the CLI's. The browser test covers the pages.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { csrfTokenFor } from '../../../server/auth/dashboard-session.js'
import { engines } from '../helper.js'
import { GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET, startGitHubStandIn } from './github-stand-in.js'
import { Browser, buildTestApp, PUBLIC_URL, readForm } from './harness.js'

const host = new URL(PUBLIC_URL).host

/** The local sign-in as a browser does it; the session token from the callback's Set-Cookie. */
async function dashboardSignIn(app: FastifyInstance, email: string, browser = new Browser(app)) {
  const form = await browser.navigate(`${PUBLIC_URL}/dashboard/sign-in`, 'never:')
  assert.equal(form.status, 200, form.body)
  assert.match(form.body, /<h1>Sign in to the dashboard<\/h1>/)
  const { action, fields } = readForm(form.body)
  const back = await browser.request('POST', `${PUBLIC_URL}${action}`, { ...fields, email })
  assert.equal(back.status, 303, back.body)
  assert.ok(back.location?.startsWith(`${PUBLIC_URL}/dashboard/callback?`), back.location ?? 'no redirect')
  const callback = await browser.request('GET', back.location ?? '')
  assert.equal(callback.status, 303, callback.body)
  assert.equal(callback.location, `${PUBLIC_URL}/dashboard/`)
  const setCookie = callback.headers['set-cookie'] ?? ''
  const token = /docs_session=(dss_[A-Za-z0-9_-]+)/.exec(setCookie)?.[1]
  assert.ok(token, setCookie)
  return { browser, token, setCookie }
}

const withSession = (token: string, extra: Record<string, string> = {}) => ({
  host,
  cookie: `docs_session=${token}`,
  ...extra,
})

for (const engine of engines) {
  test(`a dashboard sign-in: host-only HttpOnly Lax cookie, stored hashed, CSRF on every change (${engine})`, async (t) => {
    const { app } = await buildTestApp(t, { engine })
    const { token, setCookie } = await dashboardSignIn(app, 'ada@example.com')
    const session = setCookie.split(',').find((line) => line.includes('docs_session=')) ?? ''
    assert.match(session, /HttpOnly/)
    assert.match(session, /SameSite=Lax/)
    assert.match(session, /Path=\//)
    assert.doesNotMatch(session, /Domain=/i, 'never a cookie for the sites under the base domain')
    assert.doesNotMatch(session, /Secure/, 'plain http on loopback')
    const rows = await app.db.selectFrom('dashboard_sessions').selectAll().execute()
    assert.equal(rows.length, 1)
    assert.equal(rows[0]?.token_hash, createHash('sha256').update(token).digest('hex'))

    const list = await app.inject({ url: '/projects/', headers: withSession(token) })
    assert.equal(list.statusCode, 200, list.body)
    const page = await app.inject({ url: '/dashboard/', headers: withSession(token) })
    assert.equal(page.statusCode, 200)
    assert.ok(page.body.includes(`<meta name="csrf-token" content="${csrfTokenFor(token)}">`))
    assert.match(String(page.headers['content-security-policy']), /script-src 'self';/)

    const create = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/projects/',
        headers: withSession(token, { 'content-type': 'application/json', ...headers }),
        payload: { name: 'Acme', slug: 'acme' },
      })
    const bare = await create({})
    assert.equal(bare.statusCode, 401)
    assert.match(bare.json().error, /X-CSRF-Token/)
    assert.equal((await create({ 'x-csrf-token': csrfTokenFor(`${token}x`) })).statusCode, 401)
    const crossOrigin = await create({ 'sec-fetch-site': 'same-site' })
    assert.equal(crossOrigin.statusCode, 403)
    assert.match(crossOrigin.json().error, /X-CSRF-Token/)
    assert.equal((await create({ 'x-csrf-token': csrfTokenFor(token) })).statusCode, 201)
  })
}

test('signing in again rotates the session; sign-out ends it on the server', async (t) => {
  const { app } = await buildTestApp(t)
  const first = await dashboardSignIn(app, 'ada@example.com')
  // The same browser, still holding the first cookie, signs in again.
  const second = await dashboardSignIn(app, 'ada@example.com', first.browser)
  assert.notEqual(second.token, first.token)
  assert.equal((await app.inject({ url: '/projects/', headers: withSession(first.token) })).statusCode, 401)

  const signOut = (headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/dashboard/sign-out', headers: withSession(second.token, headers) })
  assert.equal((await signOut({})).statusCode, 401)
  const done = await signOut({ 'x-csrf-token': csrfTokenFor(second.token) })
  assert.equal(done.statusCode, 204)
  assert.match(String(done.headers['set-cookie']), /docs_session=; Path=\/; Max-Age=0/)
  assert.equal((await app.inject({ url: '/projects/', headers: withSession(second.token) })).statusCode, 401)
  const page = await app.inject({ url: '/dashboard/', headers: withSession(second.token) })
  assert.match(page.body, /Sign in with email/)
})

test('a session ends after its idle time, and at its absolute expiry even while used', async (t) => {
  const { app } = await buildTestApp(t)
  const user = await app.repos.users.findOrCreate('ada@example.com')
  const lifetimes = { idleSeconds: 3600, absoluteSeconds: 3 * 3600 }
  const start = new Date('2030-01-01T00:00:00Z')
  const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000)
  const sessions = app.repos.dashboardSessions

  const idle = await sessions.create(user.id, lifetimes, start)
  assert.ok(await sessions.use(idle.token, lifetimes, at(59)))
  // Used at 59 minutes: idle until 1 h 59 min.
  assert.ok(await sessions.use(idle.token, lifetimes, at(118)))
  assert.equal(await sessions.use(idle.token, lifetimes, at(179)), undefined)

  const busy = await sessions.create(user.id, lifetimes, start)
  for (let minutes = 30; minutes < 180; minutes += 30)
    assert.ok(await sessions.use(busy.token, lifetimes, at(minutes)))
  assert.equal(await sessions.use(busy.token, lifetimes, at(180)), undefined)
})

test('the dashboard is its own OAuth client: its codes, redirect and state stay its own', async (t) => {
  const { app } = await buildTestApp(t)
  const authorize = (redirectUri: string) =>
    app.inject({
      url: `/oauth/authorize?${new URLSearchParams({
        client_id: 'docs-dashboard',
        redirect_uri: redirectUri,
        response_type: 'code',
        state: 'abc',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })}`,
      headers: { host },
    })
  assert.equal((await authorize('http://evil.example/dashboard/callback')).statusCode, 400)
  assert.equal((await authorize('http://127.0.0.1:9999/callback')).statusCode, 400)
  assert.equal((await authorize(`${PUBLIC_URL}/dashboard/callback`)).statusCode, 302)

  // A code meant for the dashboard is refused at the CLI's token endpoint.
  const browser = new Browser(app)
  const form = await browser.navigate(`${PUBLIC_URL}/dashboard/sign-in`, 'never:')
  const { action, fields } = readForm(form.body)
  const back = await browser.request('POST', `${PUBLIC_URL}${action}`, {
    ...fields,
    email: 'ada@example.com',
  })
  const code = new URL(back.location ?? '').searchParams.get('code') ?? ''
  const token = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { host, 'content-type': 'application/json' },
    payload: {
      grant_type: 'authorization_code',
      client_id: 'docsctl',
      code,
      redirect_uri: `${PUBLIC_URL}/dashboard/callback`,
      code_verifier: 'a'.repeat(43),
    },
  })
  assert.equal(token.statusCode, 400)
  assert.equal(token.json().error, 'invalid_grant')

  // A callback this browser did not start (no flow cookie) makes no session.
  const stranger = await app.inject({ url: `/dashboard/callback?code=${code}&state=abc`, headers: { host } })
  assert.equal(stranger.statusCode, 400)
  assert.match(stranger.body, /not started in this browser/)
  assert.equal((await app.db.selectFrom('dashboard_sessions').selectAll().execute()).length, 0)
})

test('dashboard pages: the sign-in page when signed out, 404 for a project that is not yours', async (t) => {
  const { app } = await buildTestApp(t)
  const signedOut = await app.inject({ url: '/dashboard/', headers: { host } })
  assert.equal(signedOut.statusCode, 200)
  assert.match(signedOut.body, /href="\/dashboard\/sign-in"/)
  assert.equal((await app.inject({ url: '/', headers: { host } })).headers.location, '/dashboard/')
  // The whole of the dashboard's JavaScript, far under the 100 KB budget of a first page.
  const script = await app.inject({ url: '/dashboard/assets/dashboard.js', headers: { host } })
  assert.equal(script.statusCode, 200)
  assert.ok(script.rawPayload.length < 100_000, `${script.rawPayload.length} bytes`)
  t.diagnostic(`dashboard.js: ${script.rawPayload.length} bytes`)
  const again = await app.inject({
    url: '/dashboard/assets/dashboard.js',
    headers: { host, 'if-none-match': String(script.headers.etag) },
  })
  assert.equal(again.statusCode, 304)
  // Every page names its icon, which is served (no 404 for /favicon.ico in the browser's log).
  assert.match(
    signedOut.body,
    /<link rel="icon" href="\/dashboard\/assets\/favicon.svg" type="image\/svg\+xml">/,
  )
  const icon = await app.inject({ url: '/dashboard/assets/favicon.svg', headers: { host } })
  assert.equal(icon.statusCode, 200)
  assert.equal(icon.headers['content-type'], 'image/svg+xml')
  assert.match(icon.body, /^<svg /)
  const { token } = await dashboardSignIn(app, 'bob@example.com')
  const other = await app.repos.users.findOrCreate('ada@example.com')
  const project = await app.repos.projects.create({
    ownerId: other.id,
    slug: 'acme',
    name: 'Acme',
    description: null,
  })
  const projectId = project?.id ?? 'prj_missing'
  for (const path of ['', '/settings', '/domains', '/deployments/dpl_aaaa']) {
    const shown = await app.inject({
      url: `/dashboard/projects/${projectId}${path}`,
      headers: withSession(token),
    })
    assert.equal(shown.statusCode, 404, path)
  }
})

test('behind TLS the dashboard’s cookies are Secure, and sign-in starts on the public URL', async (t) => {
  const { app } = await buildTestApp(t, {
    config: { apiHost: 'api.docs.example.com', baseDomain: 'docs.example.com' },
    signIn: { publicUrl: 'https://api.docs.example.com' },
  })
  const start = await app.inject({ url: '/dashboard/sign-in', headers: { host: 'api.docs.example.com' } })
  assert.equal(start.statusCode, 302)
  assert.match(String(start.headers['set-cookie']), /HttpOnly; SameSite=Lax; Secure$/)
  const authorize = new URL(String(start.headers.location))
  assert.equal(authorize.origin, 'https://api.docs.example.com')
  assert.equal(authorize.searchParams.get('redirect_uri'), 'https://api.docs.example.com/dashboard/callback')
})

test('signing in to the dashboard through GitHub, as `docsctl login` does', async (t) => {
  const github = await startGitHubStandIn(t, {
    login: 'octocat',
    name: 'The Octocat',
    emails: [{ email: 'octo@example.com', primary: true, verified: true }],
  })
  const { app } = await buildTestApp(t, {
    signIn: {
      githubClientId: GITHUB_CLIENT_ID,
      githubClientSecret: GITHUB_CLIENT_SECRET,
      githubUrl: github.url,
    },
  })
  const signedOut = await app.inject({ url: '/dashboard/', headers: { host } })
  assert.match(signedOut.body, /Sign in with GitHub/)
  const browser = new Browser(app)
  const dashboard = await browser.navigate(`${PUBLIC_URL}/dashboard/sign-in`, 'never:')
  assert.equal(dashboard.url, `${PUBLIC_URL}/dashboard/`)
  assert.equal(dashboard.status, 200)
  assert.match(dashboard.body, /<span class="who">octo@example.com<\/span>/)
  assert.ok(browser.visited.some((url) => url.startsWith(github.url)))
})
