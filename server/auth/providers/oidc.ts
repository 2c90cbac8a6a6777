/**
 * Any OpenID Connect issuer (Google, Entra ID, Keycloak, Authentik, Dex…), found by discovery. The
 * server is a confidential client of the issuer and uses the authorization code flow with PKCE and a
 * nonce; it accepts only an email the issuer marks as verified. openid-client loads with the first
 * sign-in, not with every server start.
 */
import type * as Oidc from 'openid-client'
import type { Identity, UpstreamIdentityProvider, UpstreamRedirect } from './types.js'
import { SignInFailed, verifiedIdentity } from './types.js'

export interface OidcProviderOptions {
  issuer: string
  clientId: string
  clientSecret: string
}

const openidClient = (): Promise<typeof Oidc> => import('openid-client')

const isLoopback = (url: URL): boolean => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)

export class OidcProvider implements UpstreamIdentityProvider {
  readonly kind = 'oidc'
  readonly label: string
  readonly #options: OidcProviderOptions
  #configuration: Promise<Oidc.Configuration> | undefined

  constructor(options: OidcProviderOptions) {
    this.#options = options
    this.label = new URL(options.issuer).host
  }

  /** Discovery runs on first use and is kept; a failed attempt is retried on the next sign-in. */
  #discover(oidc: typeof Oidc): Promise<Oidc.Configuration> {
    if (!this.#configuration) {
      const issuer = new URL(this.#options.issuer)
      // Plain http is refused by openid-client; it is allowed only for an issuer on this machine.
      const execute = issuer.protocol === 'http:' && isLoopback(issuer) ? [oidc.allowInsecureRequests] : []
      this.#configuration = oidc
        .discovery(issuer, this.#options.clientId, this.#options.clientSecret, undefined, {
          execute,
          timeout: 10,
        })
        .catch((error: unknown) => {
          this.#configuration = undefined
          throw new SignInFailed(
            `The identity provider ${this.label} could not be reached (${(error as Error).message})`,
            'server_error',
          )
        })
    }
    return this.#configuration
  }

  async authorizationRedirect(state: string, redirectUri: string): Promise<UpstreamRedirect> {
    const oidc = await openidClient()
    const configuration = await this.#discover(oidc)
    const verifier = oidc.randomPKCECodeVerifier()
    const nonce = oidc.randomNonce()
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    })
    return { url: url.href, verifier, nonce }
  }

  async identify(
    callbackUrl: URL,
    pending: { state: string; verifier: string | null; nonce: string | null; redirectUri: string },
  ): Promise<Identity> {
    const oidc = await openidClient()
    const configuration = await this.#discover(oidc)
    if (!pending.verifier || !pending.nonce)
      throw new SignInFailed('This sign-in was not started with this provider')
    let tokens: Awaited<ReturnType<typeof Oidc.authorizationCodeGrant>>
    try {
      tokens = await oidc.authorizationCodeGrant(
        configuration,
        callbackUrl,
        {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        },
        { redirect_uri: pending.redirectUri },
      )
    } catch (error) {
      throw new SignInFailed(`${this.label} did not confirm the sign-in: ${describe(error, oidc)}`)
    }
    const claims = tokens.claims()
    if (!claims) throw new SignInFailed(`${this.label} returned no ID token`)
    let email = typeof claims.email === 'string' ? claims.email : undefined
    let verified = claims.email_verified === true
    let name = typeof claims.name === 'string' ? claims.name : null
    if (!email || !verified) {
      // Many issuers put the email only in the UserInfo response.
      const info = await oidc
        .fetchUserInfo(configuration, tokens.access_token, claims.sub)
        .catch(() => undefined)
      if (info && typeof info.email === 'string') {
        email = info.email
        verified = info.email_verified === true
        name = name ?? (typeof info.name === 'string' ? info.name : null)
      }
    }
    return verifiedIdentity(email, verified, name, {
      missing: `${this.label} did not share an email address`,
      unverified: `${this.label} has not verified the email address ${email}`,
    })
  }
}

/** openid-client errors carry the OAuth error code of the issuer; keep the words, drop the stack. */
function describe(error: unknown, oidc: typeof Oidc): string {
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError) {
    return error.error_description ? `${error.error}: ${error.error_description}` : error.error
  }
  return error instanceof Error ? error.message : String(error)
}
