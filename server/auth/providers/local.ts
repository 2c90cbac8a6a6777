/**
 * The built-in local provider: a page that asks for an email and trusts the answer. That is only safe
 * when nobody else can reach the server, so it is on only when no real identity provider is configured
 * and the listen address, API host and public URL are all loopback (see chooseIdentityProvider), and
 * it refuses requests that came through a proxy (refuseForwardedLocalSignIn in routes/sign-in.ts).
 *
 * The form is protected against cross-site submission by a per-request token, kept hashed with the
 * pending sign-in and also set as a SameSite=Strict cookie, so only the browser that loaded this page
 * can submit it.
 */
import escapeHtml from 'escape-html'

/** Inline styles only, so the page works under a `default-src 'none'` policy. */
const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:12vh auto;padding:0 1.5rem;color:#111}
h1{font-size:1.4rem;margin:0 0 .5rem}p{color:#444}label{display:block;margin:1.5rem 0 .35rem;font-weight:600}
input[type=email]{width:100%;box-sizing:border-box;padding:.6rem .7rem;font:inherit;border:1px solid #999;border-radius:6px}
button{margin-top:1rem;width:100%;padding:.65rem;font:inherit;font-weight:600;color:#fff;background:#2451d6;border:0;border-radius:6px;cursor:pointer}
.error{color:#b00020}.note{font-size:.85rem;color:#666;margin-top:2rem}
@media (prefers-color-scheme:dark){body{background:#111;color:#eee}p{color:#bbb}input[type=email]{background:#222;color:#eee}}`

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`
}

export interface SignInPageInput {
  /** Where the form posts (a path on this server). */
  action: string
  requestId: string
  csrfToken: string
  /** The server's host, so the user knows what they sign in to. */
  serverHost: string
  email?: string
  error?: string
  /** Who asked for the sign-in: the CLI (default) or the dashboard in this browser. */
  client?: 'cli' | 'dashboard'
}

export const LOCAL_SIGN_IN_FIELD = { request: 'request', csrf: 'csrf', email: 'email' } as const

export function renderSignInPage(input: SignInPageInput): string {
  const error = input.error
    ? `<p class="error" role="alert" id="email-error">${escapeHtml(input.error)}</p>`
    : ''
  const dashboard = input.client === 'dashboard'
  const title = dashboard ? 'Sign in to the dashboard' : 'Sign in to docsctl'
  const asking = dashboard
    ? 'Sign in to the dashboard of'
    : 'The command line is asking to act on your behalf on'
  return page(
    title,
    `<h1>${title}</h1>
<p>${asking} <strong>${escapeHtml(input.serverHost)}</strong>.</p>
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="${LOCAL_SIGN_IN_FIELD.request}" value="${escapeHtml(input.requestId)}">
<input type="hidden" name="${LOCAL_SIGN_IN_FIELD.csrf}" value="${escapeHtml(input.csrfToken)}">
<label for="email">Email</label>
<input type="email" id="email" name="${LOCAL_SIGN_IN_FIELD.email}" required autocomplete="email" autofocus maxlength="254"${
      input.email ? ` value="${escapeHtml(input.email)}"` : ''
    }${input.error ? ' aria-invalid="true" aria-describedby="email-error"' : ''}>
${error}<button type="submit">Continue</button>
</form>
<p class="note">Local sign-in: this server has no identity provider configured and listens only on this machine.</p>`,
  )
}

/** A dead end the user should read: an expired link, a bad request from a client. */
export function renderMessagePage(title: string, message: string): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>\n<p>Run <code>docsctl login</code> again.</p>`,
  )
}
