/**
 * The site's 404.html is answered at any missing path, however deep, while its links are relative to
 * the site root: a `<base>` pointing at the root keeps them working.
 */
import escapeHtml from 'escape-html'

/** `html` with `<base href>` first in its head (or right after the doctype when it has no head tag). */
export function withBaseHref(html: string, href: string): string {
  const base = `<base href="${escapeHtml(href)}">`
  const head = /<head(\s[^>]*)?>/i.exec(html)
  if (head) return html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length)
  const doctype = /^<!doctype[^>]*>/i.exec(html)
  const at = doctype ? doctype[0].length : 0
  return html.slice(0, at) + base + html.slice(at)
}
