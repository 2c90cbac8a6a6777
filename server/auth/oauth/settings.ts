/**
 * Sign-in settings: which identity provider, and the public URL its callbacks come back to. They join
 * the server's settings table (server/config.ts), so each is a flag and an environment variable.
 */
import { ConfigError } from '../../config-error.js'
import { isLoopbackHost } from '../providers/index.js'

export interface SignInConfig {
  /** The API's public base URL, without trailing slash; the OAuth issuer and callback base. */
  publicUrl: string
  oidcIssuer: string | undefined
  oidcClientId: string | undefined
  oidcClientSecret: string | undefined
  githubClientId: string | undefined
  githubClientSecret: string | undefined
  /** A GitHub Enterprise Server instead of github.com. */
  githubUrl: string | undefined
  /** Attempts a minute per IP at the token endpoint and at each sign-in page. */
  rateLimitPerMinute: number
}

export const signInSettings = {
  publicUrl: {
    flag: 'public-url',
    env: 'DOCS_PUBLIC_URL',
    description: 'public URL of the API, for sign-in callbacks (default http(s)://<api-host>)',
    default: undefined,
  },
  oidcIssuer: {
    flag: 'oidc-issuer',
    env: 'DOCS_OIDC_ISSUER',
    description: 'sign in with this OpenID Connect issuer (https URL)',
    default: undefined,
  },
  oidcClientId: {
    flag: 'oidc-client-id',
    env: 'DOCS_OIDC_CLIENT_ID',
    description: 'OIDC client id',
    default: undefined,
  },
  oidcClientSecret: {
    flag: 'oidc-client-secret',
    env: 'DOCS_OIDC_CLIENT_SECRET',
    description: 'OIDC client secret',
    default: undefined,
  },
  githubClientId: {
    flag: 'github-client-id',
    env: 'DOCS_GITHUB_CLIENT_ID',
    description: 'sign in with GitHub: the OAuth app client id',
    default: undefined,
  },
  githubClientSecret: {
    flag: 'github-client-secret',
    env: 'DOCS_GITHUB_CLIENT_SECRET',
    description: 'the GitHub OAuth app client secret',
    default: undefined,
  },
  githubUrl: {
    flag: 'github-url',
    env: 'DOCS_GITHUB_URL',
    description: 'GitHub Enterprise Server URL (default https://github.com)',
    default: undefined,
  },
  signInRateLimit: {
    flag: 'sign-in-rate-limit',
    env: 'DOCS_SIGN_IN_RATE_LIMIT',
    description: 'sign-in and token requests a minute per IP',
    default: '30',
  },
} as const

export type SignInSettingName = keyof typeof signInSettings

const where = (name: SignInSettingName): string =>
  `--${signInSettings[name].flag} / ${signInSettings[name].env}`

function httpUrl(name: SignInSettingName, value: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(`${where(name)}: expected an http(s):// URL, got "${value}"`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`${where(name)}: expected an http(s):// URL, got "${value}"`)
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && name !== 'publicUrl') {
    throw new ConfigError(
      `${where(name)}: use https (plain http is accepted only on loopback), got "${value}"`,
    )
  }
  return url
}

/** Reads and checks the sign-in settings; `raw` gives a setting's flag, env or default value. */
export function readSignInConfig(
  raw: (name: SignInSettingName) => string | undefined,
  apiHost: string,
): SignInConfig {
  const value = (name: SignInSettingName): string | undefined => {
    const text = raw(name)?.trim()
    return text ? text : undefined
  }
  const local = isLoopbackHost(apiHost.replace(/:\d+$/, ''))
  const publicUrlText = value('publicUrl') ?? `${local ? 'http' : 'https'}://${apiHost}`
  const publicUrl = httpUrl('publicUrl', publicUrlText).href.replace(/\/+$/, '')

  const oidc = (['oidcIssuer', 'oidcClientId', 'oidcClientSecret'] as const).map(value)
  const github = (['githubClientId', 'githubClientSecret'] as const).map(value)
  if (oidc.some(Boolean) && github.some(Boolean)) {
    throw new ConfigError(
      'Both OpenID Connect (--oidc-*) and GitHub (--github-*) sign-in are configured; keep one',
    )
  }
  if (oidc.some(Boolean) && !oidc.every(Boolean)) {
    throw new ConfigError(
      'OpenID Connect sign-in needs --oidc-issuer, --oidc-client-id and --oidc-client-secret ' +
        '(DOCS_OIDC_ISSUER, DOCS_OIDC_CLIENT_ID, DOCS_OIDC_CLIENT_SECRET)',
    )
  }
  if (github.some(Boolean) && !github.every(Boolean)) {
    throw new ConfigError(
      'GitHub sign-in needs --github-client-id and --github-client-secret (DOCS_GITHUB_CLIENT_ID, DOCS_GITHUB_CLIENT_SECRET)',
    )
  }
  const issuer = value('oidcIssuer')
  if (issuer) httpUrl('oidcIssuer', issuer)
  const githubUrl = value('githubUrl')
  if (githubUrl) httpUrl('githubUrl', githubUrl)
  const limitText = value('signInRateLimit') ?? '30'
  const rateLimitPerMinute = Number(limitText)
  if (!/^\d+$/.test(limitText) || rateLimitPerMinute < 1 || rateLimitPerMinute > 1_000_000) {
    throw new ConfigError(
      `${where('signInRateLimit')}: expected a whole number from 1 to 1000000, got "${limitText}"`,
    )
  }
  return {
    publicUrl,
    oidcIssuer: issuer,
    oidcClientId: oidc[1],
    oidcClientSecret: oidc[2],
    githubClientId: github[0],
    githubClientSecret: github[1],
    githubUrl,
    rateLimitPerMinute,
  }
}
