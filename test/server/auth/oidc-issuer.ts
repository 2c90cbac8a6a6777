/**
 * A real OpenID Connect provider for tests: oidc-provider on a loopback port, with its development
 * login and consent pages, which the test browser fills in. Any login name is accepted; its email is
 * `<login>@example.org`, verified unless the login starts with "unverified".
 */

import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestContext } from 'node:test'
import Provider from 'oidc-provider'
import { type Browser, buildTestApp, type CliLogin, PUBLIC_URL, readForm } from './harness.js'

export const OIDC_CLIENT_ID = 'docs-server'
export const OIDC_CLIENT_SECRET = 'a-client-secret-long-enough-for-hs256-signing-0123456789'

export async function startOidcIssuer(t: TestContext, callbackUrl: string): Promise<{ issuer: string }> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: [callbackUrl],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: async (_context, accountId) => ({
      accountId,
      claims: async () => ({
        sub: accountId,
        email: `${accountId}@example.org`,
        email_verified: !accountId.startsWith('unverified'),
        name: `Test ${accountId}`,
      }),
    }),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['oidc-test-cookie-key'] },
  })
  // Its development pages log a warning on every start; tests do not need it.
  provider.on('server_error', () => {})
  server.on('request', provider.callback())
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return { issuer }
}

/** An issuer on loopback and an app that signs people in through it (`options` as for buildTestApp). */
export async function oidcTestApp(t: TestContext, options: Parameters<typeof buildTestApp>[1] = {}) {
  const { issuer } = await startOidcIssuer(t, `${PUBLIC_URL}/oauth/callback`)
  const { app } = await buildTestApp(t, {
    ...options,
    signIn: { oidcIssuer: issuer, oidcClientId: OIDC_CLIENT_ID, oidcClientSecret: OIDC_CLIENT_SECRET },
  })
  return { app, issuer }
}

/** Fills in oidc-provider's development login page, then its consent page. */
export async function signInAtIssuer(
  browser: Browser,
  login: CliLogin,
  account: string,
  password = 'anything',
) {
  const loginPage = await browser.navigate(login.authorizeUrl, login.redirectUri)
  assert.equal(loginPage.status, 200, loginPage.body)
  const loginForm = readForm(loginPage.body)
  assert.equal(loginForm.fields.prompt, 'login')
  const consentPage = await browser.navigate(
    new URL(loginForm.action ?? '', loginPage.url).href,
    login.redirectUri,
    { prompt: 'login', login: account, password },
  )
  assert.equal(consentPage.status, 200, consentPage.body)
  const consentForm = readForm(consentPage.body)
  assert.equal(consentForm.fields.prompt, 'consent')
  return browser.navigate(new URL(consentForm.action ?? '', consentPage.url).href, login.redirectUri, {
    prompt: 'consent',
  })
}
