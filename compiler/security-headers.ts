/**
 * Content-Security-Policy for a built site. Pages may run the site's own files and the inline scripts
 * the shell writes into `<head>` (allowed by hash, so script that reaches a page's body any other way
 * does not run). Files a browser would run script in when opened directly (SVG, XML, HTML that is not
 * a page) are answered sandboxed, with no script at all.
 */
import { createHash } from 'node:crypto'
import { posthogOrigins } from './theme/head.js'

/** For uploaded SVG, XML and HTML-like files: shown, styled inline, never scripted, in a sandbox. */
export const SANDBOXED_FILE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'"

/** Content types a browser renders as a document that can hold script (SVG, any XML, HTML, XHTML). */
export function isActiveContent(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  // `/xml` and `+xml` cover image/svg+xml, application/xhtml+xml, text/xml, RSS, Atom and XSLT.
  return type === 'text/html' || /[/+]xml$/.test(type)
}

/** The text of every inline `<script>` in the document's `<head>`: the only place the shell writes them. */
export function inlineScriptsOfHead(html: string): string[] {
  const headEnd = html.search(/<\/head\s*>/i)
  const head = headEnd === -1 ? '' : html.slice(0, headEnd)
  const scripts: string[] = []
  for (const match of head.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (!/\bsrc\s*=/i.test(match[1] ?? '')) scripts.push(match[2] ?? '')
  }
  return scripts
}

const scriptHash = (script: string): string =>
  `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`

export interface PagePolicyOptions {
  /** Inline scripts the page is meant to run (see `inlineScriptsOfHead`). */
  inlineScripts: readonly string[]
  /** The PostHog host, when the project has analytics: its loader and API must be reachable. */
  analyticsHost?: string
  /** Origins the API pages' "Try it" panel sends requests to (the specs' servers). */
  connectSources?: readonly string[]
}

/** The sources a build adds when a spec has no servers, so the reader's own base URL can be called. */
export const PLAYGROUND_ANY_SERVER: readonly string[] = ['https:', 'http://localhost:*', 'http://127.0.0.1:*']

/**
 * A source that may stand in a policy's source list as it is: `'self'`, a sha256 hash, or an http(s)
 * origin whose host is letters, digits, `-` and `.` (URL parsing alone lets `;`, `'` and `,` through in
 * a host name, which would end the directive or add a keyword).
 */
function isSafeSource(token: string): boolean {
  return (
    token === "'self'" ||
    // What a "Try it" panel of a spec without servers may call: a base URL the reader types.
    PLAYGROUND_ANY_SERVER.includes(token) ||
    /^'sha256-[A-Za-z0-9+/]{43}='$/.test(token) ||
    /^https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/.test(token)
  )
}

/** The page policy around its two variable source lists; every other directive is fixed. */
function pagePolicyOf(scriptSources: readonly string[], connectSources: readonly string[]): string {
  const list = (sources: readonly string[]) => [...new Set(sources.filter(isSafeSource))].join(' ')
  return [
    "default-src 'self'",
    `script-src ${list(scriptSources)}`,
    // Highlighted code and components set inline styles.
    "style-src 'self' 'unsafe-inline'",
    // Authors link images, fonts, media and embeds (videos) from anywhere on https.
    "img-src 'self' data: https:",
    "font-src 'self' data: https:",
    "media-src 'self' https:",
    "frame-src 'self' https:",
    `connect-src ${list(connectSources)}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // Framed by the site itself only: another origin cannot overlay a page to steal a reader's clicks.
    "frame-ancestors 'self'",
  ].join('; ')
}

/** The policy of a site's HTML pages. */
export function sitePagePolicy(options: PagePolicyOptions): string {
  const hashes = [...new Set(options.inlineScripts.map(scriptHash))].sort()
  const analytics = options.analyticsHost ? posthogOrigins(options.analyticsHost) : undefined
  return pagePolicyOf(
    ["'self'", ...hashes, ...(analytics ? [analytics.assets, analytics.api] : [])],
    [
      "'self'",
      ...(analytics ? [analytics.api, analytics.assets] : []),
      ...[...(options.connectSources ?? [])].sort(),
    ],
  )
}

/**
 * A page policy stored with a deployment, rebuilt from the well-formed sources of its `script-src` and
 * `connect-src` (the first of each, as a browser reads them): a deployment built before its sources
 * were checked cannot add a directive or a keyword. A well-formed policy comes back unchanged, and one
 * stored before pages refused other origins' frames gains `frame-ancestors`.
 */
export function rebuiltPagePolicy(stored: string): string {
  const sources = new Map<string, string[]>()
  for (const directive of stored.split(';')) {
    const [name, ...values] = directive.trim().split(/\s+/)
    const key = (name ?? '').toLowerCase()
    if (!sources.has(key)) sources.set(key, values)
  }
  return pagePolicyOf(sources.get('script-src') ?? ["'self'"], sources.get('connect-src') ?? ["'self'"])
}
