/**
 * A real OpenID Connect provider for tests: oidc-provider on a loopback port, with its development
 * login and consent pages, which the test browser fills in. Any login name is accepted; its email is
 * `<login>@example.org`, verified unless the login starts with "unverified".
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestContext } from 'node:test'
import Provider from 'oidc-provider'

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
