/**
 * Which identity provider signs users in, decided once at start from the settings, the listen address,
 * the API host and the public URL, with the one log line that tells the operator what was chosen and why. The settings are
 * already checked (server/settings/rules.ts): at most one provider, each complete.
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

/** Where the server listens and the names it answers by: the local provider needs all of them on loopback. */
export interface ServerAddresses {
  /** The interface it listens on (`--host`). */
  listenHost: string
  /** The API's host name, maybe with a port (`--api-host`). */
  apiHost: string
}

/** Headers a reverse proxy adds: a request carrying one came from somewhere else, through a proxy. */
export const forwardingHeaders = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
] as const

/** The first forwarding header a request carries, or `undefined`. */
export function forwardingHeaderOf(headers: Record<string, unknown>): string | undefined {
  return forwardingHeaders.find((name) => headers[name] !== undefined)
}

export function chooseIdentityProvider(config: SignInConfig, server: ServerAddresses): IdentityChoice {
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
  const configure =
    'set --oidc-issuer/--oidc-client-id/--oidc-client-secret or --github-client-id/--github-client-secret'
  // A server on loopback behind a proxy with a public name is reachable by anyone: every name must be local.
  const names: [string, string][] = [
    [`the server listens on ${server.listenHost}`, server.listenHost],
    [`the API host ${server.apiHost}`, server.apiHost.replace(/:\d+$/, '')],
    [`the public URL ${config.publicUrl}`, new URL(config.publicUrl).hostname],
  ]
  const remote = names.find(([, host]) => !isLoopbackHost(host))
  if (remote)
    return {
      kind: 'none',
      message:
        `Sign-in: disabled, because no identity provider is configured and ${remote[0]}, which is not loopback ` +
        `(the local email form, which asks no password, is only for a server nobody else can reach); ${configure}`,
    }
  return {
    kind: 'local',
    message:
      'Sign-in: local provider (an email form, no password), because no identity provider is configured ' +
      `and the server listens on loopback ${server.listenHost} with the API at ${config.publicUrl}; ` +
      `requests that carry a proxy's forwarding header (${forwardingHeaders.join(', ')}) are refused. ` +
      `Before exposing the server, ${configure}`,
  }
}
