/**
 * A stand-in for GitHub's OAuth app endpoints (github.com is out of reach in tests), speaking the
 * documented protocol over real HTTP on a loopback port, the way a GitHub Enterprise Server would at
 * `--github-url`: /login/oauth/authorize, /login/oauth/access_token (with PKCE), /api/v3/user and
 * /api/v3/user/emails. It checks what GitHub checks: client secret, code, redirect URI, verifier.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestContext } from 'node:test'

export const GITHUB_CLIENT_ID = 'Iv1.0123456789abcdef'
export const GITHUB_CLIENT_SECRET = 'github-client-secret-0123456789abcdef0123'

export interface GitHubAccount {
  login: string
  name: string | null
  emails: { email: string; primary: boolean; verified: boolean }[]
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function startGitHubStandIn(t: TestContext, account: GitHubAccount): Promise<{ url: string }> {
  const codes = new Map<string, { redirectUri: string; challenge: string }>()
  const tokens = new Set<string>()
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in')
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    if (request.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const redirectUri = url.searchParams.get('redirect_uri') ?? ''
      const target = new URL(redirectUri)
      target.searchParams.set('state', url.searchParams.get('state') ?? '')
      if (url.searchParams.get('client_id') !== GITHUB_CLIENT_ID)
        target.searchParams.set('error', 'unknown_client')
      else if (url.searchParams.get('login') === 'deny') target.searchParams.set('error', 'access_denied')
      else {
        const code = randomBytes(10).toString('hex')
        codes.set(code, { redirectUri, challenge: url.searchParams.get('code_challenge') ?? '' })
        target.searchParams.set('code', code)
      }
      response.writeHead(302, { location: target.href })
      response.end()
      return
    }
    if (request.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const body = JSON.parse(await readBody(request)) as Record<string, string>
      const grant = codes.get(body.code ?? '')
      codes.delete(body.code ?? '')
      const verifierOk =
        grant &&
        createHash('sha256')
          .update(body.code_verifier ?? '')
          .digest('base64url') === grant.challenge
      if (
        body.client_id !== GITHUB_CLIENT_ID ||
        body.client_secret !== GITHUB_CLIENT_SECRET ||
        !grant ||
        grant.redirectUri !== body.redirect_uri ||
        !verifierOk
      ) {
        // GitHub answers 200 with an error body here.
        json(200, {
          error: 'bad_verification_code',
          error_description: 'The code passed is incorrect or expired.',
        })
        return
      }
      const token = `gho_${randomBytes(18).toString('hex')}`
      tokens.add(token)
      json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' })
      return
    }
    const authorized = tokens.has((request.headers.authorization ?? '').replace(/^Bearer /, ''))
    if (request.method === 'GET' && url.pathname === '/api/v3/user') {
      if (!authorized) json(401, { message: 'Bad credentials' })
      else json(200, { login: account.login, name: account.name })
      return
    }
    if (request.method === 'GET' && url.pathname === '/api/v3/user/emails') {
      if (!authorized) json(401, { message: 'Bad credentials' })
      else
        json(
          200,
          account.emails.map((entry) => ({ ...entry, visibility: entry.primary ? 'private' : null })),
        )
      return
    }
    json(404, { message: 'Not Found' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}
