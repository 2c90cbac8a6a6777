/**
 * Which identity provider signs users in, decided once at start from the settings and the listen
 * address, with the one log line that tells the operator what was chosen and why. The settings are
 * already checked (server/auth/oauth/settings.ts): at most one provider, each complete.
 */
import type { SignInConfig } from '../oauth/settings.js'
import { GitHubProvider } from './github.js'
import { OidcProvider } from './oidc.js'
import type { UpstreamIdentityProvider } from './types.js'

export type IdentityChoice =
  | { kind: 'upstream'; provider: UpstreamIdentityProvider; message: string }
  | { kind: 'local'; message: string }
  | { kind: 'none'; message: string }

/** 127.0.0.0/8, ::1 and localhost: addresses no other machine can connect to. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare)
}

export function chooseIdentityProvider(config: SignInConfig, listenHost: string): IdentityChoice {
  if (config.oidcIssuer && config.oidcClientId && config.oidcClientSecret) {
    const provider = new OidcProvider({
      issuer: config.oidcIssuer,
      clientId: config.oidcClientId,
      clientSecret: config.oidcClientSecret,
    })
    return { kind: 'upstream', provider, message: `Sign-in: OpenID Connect issuer ${config.oidcIssuer}` }
  }
  if (config.githubClientId && config.githubClientSecret) {
    const webUrl = config.githubUrl?.replace(/\/+$/, '')
    const provider = new GitHubProvider({
      clientId: config.githubClientId,
      clientSecret: config.githubClientSecret,
      // GitHub Enterprise Server serves its REST API under /api/v3 of the same host.
      ...(webUrl ? { webUrl, apiUrl: `${webUrl}/api/v3` } : {}),
    })
    return {
      kind: 'upstream',
      provider,
      message: `Sign-in: GitHub OAuth app (${webUrl ?? 'https://github.com'})`,
    }
  }
  if (isLoopbackHost(listenHost)) {
    return {
      kind: 'local',
      message:
        'Sign-in: local provider (an email form, no password), because no identity provider is configured ' +
        `and the server listens on loopback ${listenHost}; set --oidc-issuer or --github-client-id before exposing it`,
    }
  }
  return {
    kind: 'none',
    message:
      `Sign-in: disabled, because no identity provider is configured and ${listenHost} is not loopback; ` +
      'set --oidc-issuer/--oidc-client-id/--oidc-client-secret or --github-client-id/--github-client-secret',
  }
}
