/** The sign-in form's anti-forgery check, against the repository's record of the token it issued. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { AuthorizationServer } from '../../../server/auth/oauth/authorization-server.js'
import { testApp } from '../helper.js'

test('only the token issued last for a pending sign-in passes, and only when form and cookie agree', async (t) => {
  const app = await testApp(t)
  const server = new AuthorizationServer(app.repos)
  const outcome = server.checkAuthorizeRequest({
    response_type: 'code',
    client_id: 'docsctl',
    redirect_uri: 'http://127.0.0.1:8787/callback',
    state: 'cli-state',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  })
  assert.equal(outcome.kind, 'proceed')
  if (outcome.kind !== 'proceed') return
  const id = await server.beginSignIn(outcome.request, 'local')
  const before = await server.findPendingSignIn(id)
  assert.ok(before)
  assert.equal(server.checkCsrfToken(before, 'anything', 'anything'), false, 'nothing issued yet')

  const earlier = await server.issueCsrfToken(before)
  const token = await server.issueCsrfToken(before)
  const pending = await server.findPendingSignIn(id)
  assert.ok(pending)
  assert.equal(server.checkCsrfToken(pending, token, token), true)
  assert.equal(server.checkCsrfToken(pending, earlier, earlier), false, 'a newer token replaces it')
  assert.equal(server.checkCsrfToken(pending, token, undefined), false, 'no cookie: a cross-site post')
  assert.equal(server.checkCsrfToken(pending, token, `${token}x`), false)
  assert.equal(server.checkCsrfToken(pending, 'forged', 'forged'), false, 'a pair the attacker chose')
  assert.equal(server.checkCsrfToken(pending, undefined, token), false)
})
