import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { test } from 'node:test'
import { redactUrl, secretLogRedaction } from '../../../server/auth/oauth/log-redaction.js'
import {
  Browser,
  buildTestApp,
  callbackParams,
  codeGrant,
  exchangeCode,
  PUBLIC_URL,
  startCliLogin,
} from './harness.js'
import { OIDC_CLIENT_SECRET, oidcTestApp, signInAtIssuer } from './oidc-issuer.js'

/** A log stream that keeps every line it is given. */
function logSink() {
  const lines: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { sink, lines }
}

test('redactUrl hides secret query values and keeps the rest', () => {
  assert.equal(
    redactUrl('/oauth/callback?code=abc&state=def&iss=https%3A%2F%2Fid.example'),
    '/oauth/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fid.example',
  )
  assert.equal(redactUrl('/oauth/sign-in?request=xyz'), '/oauth/sign-in?request=[redacted]')
  assert.equal(redactUrl('/health'), '/health')
})

test('a whole sign-in, refresh and API use leaves no secret in the logs', async (t) => {
  const { sink, lines } = logSink()
  const { app } = await oidcTestApp(t, { logger: { level: 'trace', stream: sink } })
  const login = startCliLogin()
  const browser = new Browser(app)
  const back = await signInAtIssuer(browser, login, 'ada', 'secret-password')
  const code = callbackParams(back.location).get('code') ?? ''
  const tokens = await exchangeCode(app, codeGrant(login, code))
  assert.equal(tokens.status, 200)
  const refreshed = await exchangeCode(app, {
    grant_type: 'refresh_token',
    refresh_token: String(tokens.json.refresh_token),
  })
  assert.equal(refreshed.status, 200)
  const replay = await exchangeCode(app, {
    grant_type: 'refresh_token',
    refresh_token: String(tokens.json.refresh_token),
  })
  assert.equal(replay.status, 400)
  await app.inject({
    method: 'GET',
    url: '/me',
    headers: { host: 'localhost:8080', authorization: `Bearer ${refreshed.json.access_token}` },
  })

  // Everything secret the flow handled: the upstream code and state seen at /oauth/callback, our
  // code, the CLI's state and verifier, and every token.
  const callback = new URL(
    browser.visited.find((url) => url.startsWith(`${PUBLIC_URL}/oauth/callback`)) ?? '',
  )
  const secrets = [
    callback.searchParams.get('code'),
    callback.searchParams.get('state'),
    code,
    login.state,
    login.verifier,
    String(tokens.json.access_token),
    String(tokens.json.refresh_token),
    String(refreshed.json.access_token),
    String(refreshed.json.refresh_token),
    OIDC_CLIENT_SECRET,
  ]
  const log = lines.join('')
  assert.ok(log.includes('/oauth/callback?'), 'the callback request was logged')
  for (const secret of secrets) {
    assert.ok(secret && secret.length > 8)
    assert.equal(log.includes(secret), false, `a secret leaked into the log: ${secret.slice(0, 8)}…`)
  }
})

test('secretLogRedaction hides credentials in any logged headers', async (t) => {
  const { sink, lines } = logSink()
  const { app } = await buildTestApp(t, {
    logger: { level: 'info', stream: sink, redact: secretLogRedaction },
  })
  app.log.info({ headers: { authorization: 'Bearer dsa_topsecret', cookie: 'docs_sign_in=abc' } }, 'headers')
  const log = lines.join('')
  assert.match(log, /"authorization":"\[redacted\]"/)
  assert.equal(log.includes('dsa_topsecret'), false)
  assert.equal(log.includes('docs_sign_in=abc'), false)
})
