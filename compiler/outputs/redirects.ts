/**
 * The static export's redirects: `_redirects` (read by Netlify, Cloudflare Pages and by docs-server
 * itself) and, for every simple source, an HTML page that sends the reader on with a meta refresh, so
 * a host that reads neither still gets readers to the moved page.
 */
import escapeHtml from 'escape-html'
import {
  isAbsoluteUrl,
  isSimpleSource,
  REDIRECTS_FILE,
  type RedirectRule,
  refreshPagePath,
  renderRedirectsFile,
} from '../redirects.js'

const encoder = new TextEncoder()

/** The link from a simple source's page to its destination, relative unless it leaves the site. */
function refreshTarget(source: string, destination: string): string {
  if (isAbsoluteUrl(destination)) return destination
  const depth = source.replace(/^\/+/, '').split('/').length
  const [path = '', rest = ''] = destination.replace(/^\/+/, '').split(/(?=[?#])/)
  const isFile = /\.[a-z0-9]+$/i.test(path)
  const target = path === '' || isFile || path.endsWith('/') ? path : `${path}/`
  return `${'../'.repeat(depth)}${target}${rest}` || './'
}

/** A page that redirects at once, for hosts without server-side redirects. */
export function renderRefreshPage(source: string, destination: string): string {
  const target = escapeHtml(refreshTarget(source, destination))
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Moved</title><meta name="robots" content="noindex"><meta http-equiv="refresh" content="0; url=${target}"></head><body><p>This page has moved to <a href="${target}">${target}</a>.</p></body></html>\n`
}

/** `_redirects` and the meta-refresh pages, leaving every file the site already has untouched. */
export function redirectOutputs(
  rules: readonly RedirectRule[],
  existing: { has(path: string): boolean },
): Map<string, Uint8Array> {
  const outputs = new Map<string, Uint8Array>()
  if (rules.length === 0) return outputs
  outputs.set(REDIRECTS_FILE, encoder.encode(renderRedirectsFile(rules)))
  for (const rule of rules) {
    if (!isSimpleSource(rule.source)) continue
    const path = refreshPagePath(rule.source)
    if (!path || existing.has(path) || outputs.has(path)) continue
    outputs.set(path, encoder.encode(renderRefreshPage(rule.source, rule.destination)))
  }
  return outputs
}
