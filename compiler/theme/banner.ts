/**
 * docs.json `banner`: one line of Markdown above the header (links, emphasis, code). Raw HTML in it is
 * dropped, URLs meet the one URL policy and the result passes the page sanitiser's allow-list last;
 * site links become relative to the page. A dismissible banner
 * closes without JavaScript (a checkbox and CSS); theme/client/banner.ts remembers the reader's choice
 * per banner text once the client bundle includes it.
 */
import escapeHtml from 'escape-html'
import type { Element, ElementContent, Root } from 'hast'
import { sanitize } from 'hast-util-sanitize'
import { toHtml } from 'hast-util-to-html'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { toHast } from 'mdast-util-to-hast'
import { visit } from 'unist-util-visit'
import { pageSchema } from '../content/sanitize-schema.js'
import { urlProblem } from '../url-policy.js'
import type { SiteContext } from './context.js'
import { configHref, isExternal } from './urls.js'

/** A short, stable id of the banner's text: a new banner shows again to readers who closed the old one. */
function bannerId(content: string): string {
  let hash = 0x811c9dc5
  for (let index = 0; index < content.length; index++) {
    hash ^= content.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(36)
}

/** The banner's Markdown as inline HTML for the page at `slug`. */
export function bannerHtml(content: string, slug: string): string {
  const tree = toHast(fromMarkdown(content)) as Root
  visit(tree, 'element', (node: Element) => {
    if (node.tagName !== 'a' && node.tagName !== 'img') return
    const attribute = node.tagName === 'a' ? 'href' : 'src'
    const value = node.properties[attribute]
    if (typeof value !== 'string' || urlProblem(value, node.tagName === 'a' ? 'link' : 'image')) {
      delete node.properties[attribute]
      return
    }
    node.properties[attribute] = configHref(slug, value)
    if (node.tagName === 'a' && isExternal(value)) {
      node.properties.target = '_blank'
      node.properties.rel = ['noopener', 'noreferrer']
    }
  })
  // One line: paragraphs lose their <p>, and blocks are kept as their inline content.
  const inline: ElementContent[] = tree.children.flatMap((child) =>
    child.type === 'element' && child.tagName === 'p'
      ? child.children
      : child.type === 'text'
        ? []
        : [child as ElementContent],
  )
  // The same allow-list as page bodies, last: whatever Markdown produced, nothing else gets through.
  return toHtml(sanitize({ type: 'root', children: inline }, pageSchema))
}

export function renderBanner(site: SiteContext, slug: string): string {
  const banner = site.config.banner
  if (!banner || typeof banner.content !== 'string' || banner.content.trim() === '') return ''
  const id = bannerId(banner.content)
  // The checkbox is the control keyboards and screen readers use; the label is the visible close button.
  const toggle = banner.dismissible
    ? '<input type="checkbox" id="d-banner-dismissed" class="d-banner-toggle d-visually-hidden" aria-label="Dismiss banner">'
    : ''
  const dismiss = banner.dismissible
    ? '<label class="d-banner-dismiss" for="d-banner-dismissed" aria-hidden="true"><svg viewBox="0 0 24 24" width="16" height="16"><path d="M6 6l12 12M18 6 6 18" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg></label>'
    : ''
  return `${toggle}<div class="d-banner" role="region" aria-label="Announcement" data-banner="${escapeHtml(id)}"><p class="d-banner-content">${bannerHtml(banner.content, slug)}</p>${dismiss}</div>`
}
