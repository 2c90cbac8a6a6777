/** The site footer: the site's name and its global links. */

import escapeHtml from 'escape-html'
import type { SiteContext } from './context.js'
import { externalAttributes } from './sidebar.js'
import { configHref } from './urls.js'

export function renderFooter(site: SiteContext, slug: string): string {
  const links = site.navigation.global.links
    .map(
      (link) =>
        `<li><a href="${escapeHtml(configHref(slug, link.href))}"${externalAttributes(link.href)}>${escapeHtml(link.label)}</a></li>`,
    )
    .join('')
  return `<footer class="d-footer"><p class="d-footer-name">${escapeHtml(site.config.name)}</p>${links ? `<ul class="d-footer-links">${links}</ul>` : ''}</footer>`
}
