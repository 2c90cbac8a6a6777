/**
 * The HTML the server renders for the dashboard: the sign-in page, a message page, and the shell each
 * dashboard page loads its script into. Everything interpolated is escaped; the script and stylesheet
 * are same-origin files, so the CSP allows no inline code at all.
 */
import escapeHtml from 'escape-html'

export const dashboardHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
}

function layout(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)} · docs dashboard</title>
<link rel="icon" href="/dashboard/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
${head}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${body}
</body>
</html>
`
}

export function renderSignInPage(options: { providerLabel: string; message?: string }): string {
  const note = options.message ? `<p class="error" role="alert">${escapeHtml(options.message)}</p>` : ''
  return layout(
    'Sign in',
    `<main id="main" class="narrow">
<h1>docs dashboard</h1>
<p>Your projects, deployments, deploy keys and domains.</p>
${note}
<p><a class="button primary" href="/dashboard/sign-in">Sign in with ${escapeHtml(options.providerLabel)}</a></p>
</main>`,
  )
}

export function renderMessagePage(title: string, message: string): string {
  return layout(
    title,
    `<main id="main" class="narrow">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p><a href="/dashboard/">Back to the dashboard</a></p>
</main>`,
  )
}

/** The page the script fills in; `page` names which one, the data comes from the REST API. */
export function renderShell(options: { page: string; csrfToken: string; email: string }): string {
  return layout(
    'Dashboard',
    `<header class="top">
<a class="brand" href="/dashboard/">docs</a>
<span class="who">${escapeHtml(options.email)}</span>
<button type="button" id="sign-out">Sign out</button>
</header>
<main id="main" data-page="${escapeHtml(options.page)}" aria-live="polite"><p>Loading…</p></main>
<script src="/dashboard/assets/dashboard.js" defer></script>`,
    `<meta name="csrf-token" content="${escapeHtml(options.csrfToken)}">\n`,
  )
}
