/**
 * The site footer: the site's name, the global links, docs.json `footer.socials` as icon links and
 * `footer.links` as columns of links.
 */

import escapeHtml from 'escape-html'
import type { SiteContext } from './context.js'
import { externalAttributes } from './sidebar.js'
import { configHref } from './urls.js'

/** Social platform names as docs.json writes them → the Font Awesome brand icon, when they differ. */
const SOCIAL_ICONS: Record<string, string> = {
  x: 'x-twitter',
  website: 'globe',
  'hacker-news': 'hacker-news',
}

/** Names as readers know them, for the links' accessible text. */
const SOCIAL_NAMES: Record<string, string> = {
  x: 'X',
  github: 'GitHub',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
  'hacker-news': 'Hacker News',
}

// Own keys only: a docs.json platform named `constructor` or `toString` is an unknown platform.
const socialName = (platform: string): string =>
  Object.hasOwn(SOCIAL_NAMES, platform)
    ? SOCIAL_NAMES[platform]!
    : platform.charAt(0).toUpperCase() + platform.slice(1)

const socialIcon = (platform: string): string =>
  Object.hasOwn(SOCIAL_ICONS, platform) ? SOCIAL_ICONS[platform]! : platform

function renderSocials(site: SiteContext, slug: string): string {
  const socials = site.config.footer?.socials ?? {}
  const links = Object.entries(socials)
    .filter(([, href]) => typeof href === 'string' && href !== '')
    .map(([platform, href]) => {
      const icon = site.iconSvg(socialIcon(platform)) ?? site.iconSvg('link') ?? ''
      return `<li><a href="${escapeHtml(configHref(slug, href))}"${externalAttributes(href)} aria-label="${escapeHtml(socialName(platform))}" title="${escapeHtml(socialName(platform))}">${icon}</a></li>`
    })
  return links.length ? `<ul class="d-footer-socials">${links.join('')}</ul>` : ''
}

function renderColumns(site: SiteContext, slug: string): string {
  const columns = (site.config.footer?.links ?? []).flatMap((column) => {
    const items = (column.items ?? []).flatMap((item) => {
      const label = item.label ?? item.anchor
      if (typeof label !== 'string' || typeof item.href !== 'string') return []
      return [
        `<li><a href="${escapeHtml(configHref(slug, item.href))}"${externalAttributes(item.href)}>${escapeHtml(label)}</a></li>`,
      ]
    })
    if (items.length === 0) return []
    const header = column.header ? `<p class="d-footer-heading">${escapeHtml(column.header)}</p>` : ''
    return [`<div class="d-footer-column">${header}<ul>${items.join('')}</ul></div>`]
  })
  return columns.length ? `<nav class="d-footer-columns" aria-label="Footer">${columns.join('')}</nav>` : ''
}

export function renderFooter(site: SiteContext, slug: string): string {
  const links = site.navigation.global.links
    .map(
      (link) =>
        `<li><a href="${escapeHtml(configHref(slug, link.href))}"${externalAttributes(link.href)}>${escapeHtml(link.label)}</a></li>`,
    )
    .join('')
  return `<footer class="d-footer">${renderColumns(site, slug)}<div class="d-footer-bottom"><p class="d-footer-name">${escapeHtml(site.config.name)}</p>${links ? `<ul class="d-footer-links">${links}</ul>` : ''}${renderSocials(site, slug)}</div></footer>`
}
