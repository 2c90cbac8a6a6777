/**
 * GitHub as the identity provider, through an OAuth app. GitHub is not an OpenID Connect issuer, so the
 * user's address comes from the REST API: the primary email, and only when GitHub has verified it.
 */
import { createPkcePair } from '../../../lib/pkce.js'
import type { Identity, UpstreamIdentityProvider, UpstreamRedirect } from './types.js'
import { SignInFailed, verifiedIdentity } from './types.js'

export interface GitHubProviderOptions {
  clientId: string
  clientSecret: string
  /** https://github.com, or a GitHub Enterprise Server. */
  webUrl?: string
  /** https://api.github.com, or `<enterprise>/api/v3`. */
  apiUrl?: string
}

interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
}

export class GitHubProvider implements UpstreamIdentityProvider {
  readonly kind = 'github'
  readonly label = 'GitHub'
  readonly #options: GitHubProviderOptions
  readonly #webUrl: string
  readonly #apiUrl: string

  constructor(options: GitHubProviderOptions) {
    this.#options = options
    this.#webUrl = (options.webUrl ?? 'https://github.com').replace(/\/+$/, '')
    this.#apiUrl = (options.apiUrl ?? 'https://api.github.com').replace(/\/+$/, '')
  }

  async authorizationRedirect(state: string, redirectUri: string): Promise<UpstreamRedirect> {
    const { verifier, challenge } = createPkcePair()
    const url = new URL(`${this.#webUrl}/login/oauth/authorize`)
    url.searchParams.set('client_id', this.#options.clientId)
    url.searchParams.set('redirect_uri', redirectUri)
    url.searchParams.set('scope', 'read:user user:email')
    url.searchParams.set('state', state)
    url.searchParams.set('code_challenge', challenge)
    url.searchParams.set('code_challenge_method', 'S256')
    url.searchParams.set('allow_signup', 'false')
    return { url: url.href, verifier }
  }

  async identify(
    callbackUrl: URL,
    pending: { state: string; verifier: string | null; redirectUri: string },
  ): Promise<Identity> {
    const denied = callbackUrl.searchParams.get('error')
    if (denied)
      throw new SignInFailed(
        `GitHub refused the sign-in: ${callbackUrl.searchParams.get('error_description') ?? denied}`,
      )
    const code = callbackUrl.searchParams.get('code')
    if (!code) throw new SignInFailed('GitHub sent no authorization code')
    if (callbackUrl.searchParams.get('state') !== pending.state)
      throw new SignInFailed('GitHub answered a different sign-in')

    const exchange = await this.#fetchJson(`${this.#webUrl}/login/oauth/access_token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: this.#options.clientId,
        client_secret: this.#options.clientSecret,
        code,
        redirect_uri: pending.redirectUri,
        ...(pending.verifier ? { code_verifier: pending.verifier } : {}),
      }),
    })
    const accessToken = typeof exchange.access_token === 'string' ? exchange.access_token : undefined
    if (!accessToken) {
      const reason =
        typeof exchange.error_description === 'string' ? exchange.error_description : 'no access token'
      throw new SignInFailed(`GitHub did not confirm the sign-in: ${reason}`)
    }
    const headers = {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${accessToken}`,
      'user-agent': 'docs-server',
      'x-github-api-version': '2022-11-28',
    }
    const profile = await this.#fetchJson(`${this.#apiUrl}/user`, { headers })
    const emails = await this.#fetchJson(`${this.#apiUrl}/user/emails`, { headers })
    const primary = (Array.isArray(emails) ? (emails as GitHubEmail[]) : []).find((entry) => entry.primary)
    const name =
      typeof profile.name === 'string' && profile.name
        ? profile.name
        : typeof profile.login === 'string'
          ? profile.login
          : null
    return verifiedIdentity(primary?.email, primary?.verified === true, name, {
      missing: 'Your GitHub account has no primary email address',
      unverified: `GitHub has not verified your primary email ${primary?.email}; verify it and sign in again`,
    })
  }

  async #fetchJson(url: string, init: RequestInit): Promise<Record<string, unknown>> {
    let response: Response
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
    } catch (error) {
      throw new SignInFailed(`GitHub could not be reached (${(error as Error).message})`, 'server_error')
    }
    if (!response.ok)
      throw new SignInFailed(
        `GitHub answered ${response.status} for ${new URL(url).pathname}`,
        'server_error',
      )
    return (await response.json()) as Record<string, unknown>
  }
}
