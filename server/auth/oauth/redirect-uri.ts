/**
 * Which redirect URIs the CLI may use. `docsctl` is a native app, so per RFC 8252 §7.3 it receives the
 * code on a loopback listener whose port is chosen at run time: any port is allowed, the scheme must be
 * http and the host a loopback name. Everything else could hand the code to someone else's server.
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

export type RedirectUriCheck = { ok: true; uri: URL } | { ok: false; reason: string }

export function checkLoopbackRedirectUri(value: string): RedirectUriCheck {
  let uri: URL
  try {
    uri = new URL(value)
  } catch {
    return { ok: false, reason: 'redirect_uri is not an absolute URL' }
  }
  if (uri.protocol !== 'http:')
    return { ok: false, reason: 'redirect_uri must use http on a loopback address' }
  if (!LOOPBACK_HOSTS.has(uri.hostname)) {
    return { ok: false, reason: 'redirect_uri must point at 127.0.0.1, [::1] or localhost' }
  }
  if (uri.username || uri.password) return { ok: false, reason: 'redirect_uri must not carry credentials' }
  // RFC 6749 §3.1.2: the redirection endpoint URI must not include a fragment component.
  if (value.includes('#')) return { ok: false, reason: 'redirect_uri must not contain a fragment' }
  return { ok: true, uri }
}

/**
 * The URI the browser is sent back to: the client's own query kept, then the response parameters.
 * `state` is echoed exactly as the client sent it.
 */
export function redirectWithParams(redirectUri: string, params: Record<string, string | undefined>): string {
  const target = new URL(redirectUri)
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) target.searchParams.set(name, value)
  }
  return target.toString()
}
