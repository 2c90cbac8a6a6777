/**
 * An upstream identity provider answers one question for a pending sign-in: who is this person? The
 * authorization server then issues its own tokens; upstream tokens are used once and never stored.
 */

export interface Identity {
  /** A verified email address; accounts are keyed by it. */
  email: string
  name: string | null
}

/** Where to send the browser, and what to keep until it comes back. */
export interface UpstreamRedirect {
  url: string
  /** PKCE verifier for the upstream code, kept with the pending sign-in. */
  verifier?: string
  nonce?: string
}

export interface UpstreamIdentityProvider {
  readonly kind: 'github' | 'oidc'
  /** Shown in the start log line and in errors ("GitHub", the OIDC issuer's host). */
  readonly label: string
  /** `state` is the pending sign-in's id; `redirectUri` is this server's /oauth/callback. */
  authorizationRedirect(state: string, redirectUri: string): Promise<UpstreamRedirect>
  /**
   * Redeems the provider's answer at /oauth/callback. Throws SignInFailed with a message fit for the
   * user when the provider refuses or the account has no verified email.
   */
  identify(
    callbackUrl: URL,
    pending: { state: string; verifier: string | null; nonce: string | null; redirectUri: string },
  ): Promise<Identity>
}

/** A sign-in that cannot complete; the message is shown to the user and holds no secret. */
export class SignInFailed extends Error {
  constructor(
    message: string,
    /** The OAuth error code sent back to the CLI. */
    readonly code: 'access_denied' | 'server_error' = 'access_denied',
  ) {
    super(message)
    this.name = 'SignInFailed'
  }
}

/** The identity for an address the provider has verified; a missing or unverified one is refused. */
export function verifiedIdentity(
  email: string | undefined,
  verified: boolean,
  name: string | null,
  refusal: { missing: string; unverified: string },
): Identity {
  if (!email || !isEmailAddress(email)) throw new SignInFailed(refusal.missing)
  if (!verified) throw new SignInFailed(refusal.unverified)
  return { email: email.toLowerCase(), name }
}

/** Loose but sufficient: something@host.tld without spaces, at most 254 characters (RFC 5321). */
export const isEmailAddress = (value: string): boolean =>
  value.length <= 254 && /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/.test(value)
