/**
 * `docsctl login` against a real listening server with the local provider: the CLI's own sign-in code
 * (discovery, PKCE, loopback callback, code exchange, /me) on one side, a browser driving the sign-in
 * page over real HTTP on the other, then a refresh through the CLI's session code.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { signIn } from '../../../cli/auth/login.js'
import { refreshSession } from '../../../cli/auth/session.js'
import { readSession } from '../../../cli/credentials.js'
import { Browser, listeningTestApp, readForm, watchForAuthorizeUrl } from './harness.js'

test('docsctl login signs in through the local provider on a real socket, and refreshes', async (t) => {
  const { app, apiUrl } = await listeningTestApp(t)
  const configDir = await mkdtemp(join(tmpdir(), 'docsctl-login-'))
  t.after(() => rm(configDir, { recursive: true, force: true }))
  const env = { DOCSCTL_CONFIG_DIR: configDir }

  const { stdout, authorizeUrl } = watchForAuthorizeUrl()
  const login = signIn({ apiUrl, port: 0, timeoutSeconds: 30, openBrowser: false, stdout, env })

  const browser = new Browser(app)
  const page = await browser.navigate(await authorizeUrl, 'never')
  assert.equal(page.status, 200)
  const form = readForm(page.body)
  const done = await browser.navigate(new URL(form.action ?? '', page.url).href, 'never', {
    ...form.fields,
    email: 'cli@example.com',
  })
  assert.equal(done.status, 200)
  assert.ok(done.url.startsWith('http://127.0.0.1:'), 'the browser ended on the CLI’s loopback listener')
  assert.match(done.body, /Signed in/)

  const { session, user } = await login
  assert.equal(user.email, 'cli@example.com')
  assert.equal(session.tokenEndpoint, `${apiUrl}/oauth/token`)
  const stored = await readSession(env)
  assert.equal(stored?.accessToken, session.accessToken)

  const refreshed = await refreshSession(session, env)
  assert.ok(refreshed)
  assert.notEqual(refreshed.refreshToken, session.refreshToken)
  const me = await fetch(`${apiUrl}/me`, { headers: { authorization: `Bearer ${refreshed.accessToken}` } })
  assert.equal(me.status, 200)
  assert.equal(((await me.json()) as { email: string }).email, 'cli@example.com')
  // The old refresh token was rotated away: presenting it again ends the session.
  assert.equal(await refreshSession(session, env), undefined)
  const after = await fetch(`${apiUrl}/me`, { headers: { authorization: `Bearer ${refreshed.accessToken}` } })
  assert.equal(after.status, 401)
})
