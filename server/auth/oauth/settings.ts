/**
 * The shape of the sign-in settings: which identity provider, and the public URL its callbacks come
 * back to. Their flags, variables, defaults and checks are in the settings table
 * (server/settings/table.ts, rules.ts); server/config.ts fills this shape.
 */
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
