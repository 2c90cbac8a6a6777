/**
 * Content-Security-Policy for a built site. Pages may run the site's own files and the inline scripts
 * the shell writes into `<head>` (allowed by hash, so script that reaches a page's body any other way
 * does not run). Files a browser would run script in when opened directly (SVG, XML, HTML that is not
 * a page) are answered sandboxed, with no script at all.
 */
import { createHash } from 'node:crypto'
import { posthogOrigins } from '../theme/head.js'

/** For uploaded SVG, XML and HTML-like files: shown, styled inline, never scripted, in a sandbox. */
export const SANDBOXED_FILE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

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

/** The policy of a site's HTML pages. */
export function sitePagePolicy(options: PagePolicyOptions): string {
  const hashes = [...new Set(options.inlineScripts.map(scriptHash))].sort()
  const analytics = options.analyticsHost ? posthogOrigins(options.analyticsHost) : undefined
  const scriptSources = ["'self'", ...hashes, ...(analytics ? [analytics.assets, analytics.api] : [])]
  const connectSources = [
    "'self'",
    ...(analytics ? [analytics.api, analytics.assets] : []),
    ...[...(options.connectSources ?? [])].sort(),
  ]
  return [
    "default-src 'self'",
    `script-src ${[...new Set(scriptSources)].join(' ')}`,
    // Highlighted code and components set inline styles.
    "style-src 'self' 'unsafe-inline'",
    // Authors link images, fonts, media and embeds (videos) from anywhere on https.
    "img-src 'self' data: https:",
    "font-src 'self' data: https:",
    "media-src 'self' https:",
    "frame-src 'self' https:",
    `connect-src ${[...new Set(connectSources)].join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ')
}
