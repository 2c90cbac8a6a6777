/**
 * The sidebar of the current tab: groups as `<details>` (so they open and close without JavaScript),
 * hidden groups and pages left out, the current page marked with `aria-current`.
 */
import type { NavItem } from '../config/types.js'
import type { SiteContext } from './context.js'
import { escapeHtml, join } from './html.js'
import { configHref, isExternal, pageHref, siteHref } from './urls.js'

export function renderSidebar(site: SiteContext, currentSlug: string, tabIndex: number): string {
  const tab = site.navigation.tabs[tabIndex]
  const anchors = site.navigation.global.anchors
  const items = tab && !tab.href ? renderItems(site, currentSlug, tab.items) : ''
  const anchorList = anchors.length
    ? `<ul class="d-anchors">${anchors
        .map((anchor) => {
          const icon = anchor.icon ? site.iconSvg(anchor.icon) : undefined
          return `<li><a href="${escapeHtml(configHref(currentSlug, anchor.href))}"${externalAttributes(anchor.href)}>${icon ? `<span class="d-nav-icon" aria-hidden="true">${icon}</span>` : ''}${escapeHtml(anchor.label)}</a></li>`
        })
        .join('')}</ul>`
    : ''
  return `<nav class="d-sidebar-nav" aria-label="Documentation">${anchorList}${items}</nav>`
}

function renderItems(site: SiteContext, currentSlug: string, items: readonly NavItem[]): string {
  // Pages without a file (reported by the build) and hidden ones are left out, so no link is dead.
  const visible = items.filter((item) =>
    item.kind === 'page'
      ? site.pages.has(item.slug) && !item.hidden && !site.pages.get(item.slug)?.hidden
      : !item.hidden,
  )
  if (visible.length === 0) return ''
  return `<ul class="d-nav-list">${visible.map((item) => renderItem(site, currentSlug, item)).join('')}</ul>`
}

function renderItem(site: SiteContext, currentSlug: string, item: NavItem): string {
  if (item.kind === 'page') {
    const page = site.pages.get(item.slug)
    const label = page?.sidebarTitle ?? page?.title ?? item.slug
    const href = page?.url ? configHref(currentSlug, page.url) : pageHref(currentSlug, item.slug)
    const current = item.slug === currentSlug ? ' aria-current="page"' : ''
    const external = page?.url ? externalAttributes(page.url) : ''
    const icon = page?.iconSvg ? `<span class="d-nav-icon" aria-hidden="true">${page.iconSvg}</span>` : ''
    const badges = join(
      page?.tag && `<span class="d-badge d-badge-tag">${escapeHtml(page.tag)}</span>`,
      page?.deprecated && '<span class="d-badge d-badge-deprecated">Deprecated</span>',
    )
    return `<li><a class="d-nav-link" href="${escapeHtml(href)}"${current}${external}>${icon}<span class="d-nav-label">${escapeHtml(label)}</span>${badges}</a></li>`
  }
  const inner = renderItems(site, currentSlug, item.items)
  const open = item.expanded || containsPage(item.items, currentSlug) ? ' open' : ''
  const icon = item.icon ? site.iconSvg(item.icon) : undefined
  return `<li class="d-nav-group"><details${open}><summary>${icon ? `<span class="d-nav-icon" aria-hidden="true">${icon}</span>` : ''}<span>${escapeHtml(item.label)}</span></summary>${inner}</details></li>`
}

function containsPage(items: readonly NavItem[], slug: string): boolean {
  return items.some((item) => (item.kind === 'page' ? item.slug === slug : containsPage(item.items, slug)))
}

export const externalAttributes = (href: string): string =>
  isExternal(href) ? ' target="_blank" rel="noopener noreferrer"' : ''

/** The link of a tab: its own href, or its first visible page. */
export function tabHref(site: SiteContext, currentSlug: string, tabIndex: number): string | undefined {
  const tab = site.navigation.tabs[tabIndex]
  if (!tab) return undefined
  if (tab.href) return configHref(currentSlug, tab.href)
  const first = site.firstPageOfTab[tabIndex]
  return first ? pageHref(currentSlug, first) : siteHref(currentSlug, '')
}
