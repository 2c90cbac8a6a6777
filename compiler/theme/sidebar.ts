/**
 * The sidebar of the current tab: groups as `<details>` (so they open and close without JavaScript),
 * hidden groups and pages left out, the current page marked with `aria-current`.
 */

import escapeHtml from 'escape-html'
import type { NavItem, NavSection } from '../config/types.js'
import { urlProblem } from '../url-policy.js'
import type { SiteContext } from './context.js'
import { join } from './html.js'
import { firstPageOf, sectionChoices } from './sections.js'
import { configHref, isExternal, pageHref, pageUrlPath, rootPrefix } from './urls.js'

/**
 * The sidebar of a tab is the same on every page but for three things: the path back to the site
 * root, which link is current, and which collapsed groups open around it. It is rendered once per
 * tab with marker characters for the root path (NUL before a path, U+0001 for the root itself) and
 * filled in per page with native string replacement, so a 1,000-page site does not render
 * 1,000 × 1,000 links from scratch.
 */
interface SidebarTemplate {
  html: string
  /** Collapsed groups (by number) that contain each page: they open when it is current. */
  ancestors: Map<string, number[]>
  groups: number
}

const ROOT_PATH = '\0'
const ROOT_ITSELF = '\u0001'
const templates = new WeakMap<SiteContext, Map<number, SidebarTemplate>>()

/** Page links carry no class (`.d-nav-list a` in CSS): they are most of a large site's bytes. */
export function renderSidebar(site: SiteContext, currentSlug: string, tabIndex: number): string {
  let byTab = templates.get(site)
  if (!byTab) {
    byTab = new Map()
    templates.set(site, byTab)
  }
  let template = byTab.get(tabIndex)
  if (!template) {
    template = buildTemplate(site, tabIndex)
    byTab.set(tabIndex, template)
  }
  const prefix = rootPrefix(currentSlug)
  let html = template.html.replaceAll(ROOT_ITSELF, prefix || './').replaceAll(ROOT_PATH, prefix)
  const currentHref = escapeHtml(`${prefix}${pageUrlPath(currentSlug)}` || './')
  const link = `<li><a href="${currentHref}"`
  const at = html.indexOf(link)
  if (at >= 0) html = `${html.slice(0, at + link.length)} aria-current="page"${html.slice(at + link.length)}`
  for (const group of template.ancestors.get(currentSlug) ?? []) {
    html = html.replace(`<details data-group="${group}">`, `<details data-group="${group}" open>`)
  }
  return html
}

/** A site path from the root, with the marker that becomes the page's way back to the root. */
const fromRoot = (path: string): string => (path === '' ? ROOT_ITSELF : ROOT_PATH + escapeHtml(path))

/** A docs.json or front matter link in a template: site paths get the root marker. */
function templateHref(href: string): string {
  if (urlProblem(href, 'link')) return '#'
  if (isExternal(href) || href.startsWith('#')) return escapeHtml(href)
  const path = configHref('index', href)
  return fromRoot(path === './' ? '' : path)
}

function buildTemplate(site: SiteContext, tabIndex: number): SidebarTemplate {
  const tab = site.navigation.tabs[tabIndex]
  const anchors = site.navigation.global.anchors
  const template: SidebarTemplate = { html: '', ancestors: new Map(), groups: 0 }
  const items = tab && !tab.href ? renderItems(site, template, tab.items, []) : ''
  const anchorList = anchors.length
    ? `<ul class="d-anchors">${anchors
        .map((anchor) => {
          const icon = anchor.icon ? site.iconSvg(anchor.icon) : undefined
          return `<li><a class="d-global-anchor" href="${templateHref(anchor.href)}"${externalAttributes(anchor.href)}>${icon ? `<span class="d-nav-icon" aria-hidden="true">${icon}</span>` : ''}${escapeHtml(anchor.label)}</a></li>`
        })
        .join('')}</ul>`
    : ''
  template.html = `<nav class="d-sidebar-nav" aria-label="Documentation">${sectionLists(site, tabIndex)}${anchorList}${items}</nav>`
  return template
}

/** A section's link in a template: its first page from the root, else its own href. */
function sectionTemplateHref(site: SiteContext, section: NavSection): string | undefined {
  const first = firstPageOf(site, section)
  if (first !== undefined) return fromRoot(pageUrlPath(first))
  return section.href ? templateHref(section.href) : undefined
}

/** Anchors above the sidebar, and dropdowns and menus as a menu of the sibling sections. */
function sectionLists(site: SiteContext, tabIndex: number): string {
  return sectionChoices(site, tabIndex)
    .map((choice) => {
      const links = choice.options.flatMap((section) => {
        const href = sectionTemplateHref(site, section)
        if (href === undefined) return []
        const current = section === choice.current ? ' aria-current="true"' : ''
        const external =
          section.href && firstPageOf(site, section) === undefined ? externalAttributes(section.href) : ''
        const icon = section.icon ? site.iconSvg(section.icon) : undefined
        const iconHtml = icon ? `<span class="d-nav-icon" aria-hidden="true">${icon}</span>` : ''
        return [
          `<li><a class="d-section-link" href="${href}"${current}${external}>${iconHtml}${escapeHtml(section.label)}</a></li>`,
        ]
      })
      if (links.length === 0) return ''
      if (choice.kind === 'anchor') return `<ul class="d-anchors d-section-anchors">${links.join('')}</ul>`
      if (choice.kind !== 'dropdown' && choice.kind !== 'menu') return ''
      const label = choice.current?.label ?? choice.options[0]?.label ?? ''
      return `<details class="d-dropdown d-section-menu" data-section="${choice.kind}"><summary>${escapeHtml(label)}</summary><ul>${links.join('')}</ul></details>`
    })
    .join('')
}

function renderItems(
  site: SiteContext,
  template: SidebarTemplate,
  items: readonly NavItem[],
  groups: number[],
): string {
  // Pages without a file (reported by the build) and hidden ones are left out, so no link is dead.
  const visible = items.filter((item) =>
    item.kind === 'page'
      ? site.pages.has(item.slug) && !item.hidden && !site.pages.get(item.slug)?.hidden
      : !item.hidden,
  )
  if (visible.length === 0) return ''
  return `<ul class="d-nav-list">${visible.map((item) => renderItem(site, template, item, groups)).join('')}</ul>`
}

function renderItem(site: SiteContext, template: SidebarTemplate, item: NavItem, groups: number[]): string {
  if (item.kind === 'page') {
    if (!template.ancestors.has(item.slug)) template.ancestors.set(item.slug, groups)
    const page = site.pages.get(item.slug)
    const label = page?.sidebarTitle ?? page?.title ?? item.slug
    const href = page?.url ? templateHref(page.url) : fromRoot(pageUrlPath(item.slug))
    const external = page?.url ? externalAttributes(page.url) : ''
    const icon = page?.iconSvg ? `<span class="d-nav-icon" aria-hidden="true">${page.iconSvg}</span>` : ''
    const badges = join(
      page?.tag && `<span class="d-badge d-badge-tag">${escapeHtml(page.tag)}</span>`,
      page?.deprecated && '<span class="d-badge d-badge-deprecated">Deprecated</span>',
    )
    const method = page?.method
      ? `<span class="d-method d-method-${escapeHtml(page.method.toLowerCase())}">${escapeHtml(methodLabel(page.method))}</span>`
      : ''
    return `<li><a href="${href}"${external}>${icon}${method}${escapeHtml(label)}${badges}</a></li>`
  }
  const group = template.groups++
  const inside = item.expanded ? groups : [...groups, group]
  const inner = renderItems(site, template, item.items, inside)
  const icon = item.icon ? site.iconSvg(item.icon) : undefined
  const tag = item.tag ? `<span class="d-badge d-badge-tag">${escapeHtml(item.tag)}</span>` : ''
  // A group `root` page opens from the group's label: the label becomes its link.
  const root = item.root !== undefined && site.pages.has(item.root) ? item.root : undefined
  if (root !== undefined && !template.ancestors.has(root)) template.ancestors.set(root, inside)
  const label = root
    ? `<a class="d-nav-group-root" href="${fromRoot(pageUrlPath(root))}">${escapeHtml(item.label)}</a>`
    : `<span>${escapeHtml(item.label)}</span>`
  return `<li class="d-nav-group"><details${item.expanded ? ' open' : ` data-group="${group}"`}><summary>${icon ? `<span class="d-nav-icon" aria-hidden="true">${icon}</span>` : ''}${label}${tag}</summary>${inner}</details></li>`
}

export const externalAttributes = (href: string): string =>
  isExternal(href) ? ' target="_blank" rel="noopener noreferrer"' : ''

/** The link of a section: its first visible page, else its own href. */
export function sectionHref(site: SiteContext, currentSlug: string, section: NavSection): string | undefined {
  const first = firstPageOf(site, section)
  if (first !== undefined) return pageHref(currentSlug, first)
  return section.href ? configHref(currentSlug, section.href) : undefined
}

/** Short method names, as API sidebars write them, so labels stay aligned. */
const methodLabel = (method: string): string =>
  (({ DELETE: 'DEL', OPTIONS: 'OPT', WEBHOOK: 'HOOK' }) as Record<string, string>)[method] ?? method
