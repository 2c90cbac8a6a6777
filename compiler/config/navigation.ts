/**
 * Normalises the `navigation` object of a validated docs.json into the one tree later stages use:
 * tabs holding groups and pages, every page once in navigation order with its tab and groups, and the
 * defaults applied (the first group of a tab starts expanded; a hidden group hides its pages).
 */
import type { NavGroup, NavItem, NavigationTree, NavLink, NavPage, NavTab, PageLocation } from './types.js'

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

/** `/guide/setup.mdx` → `guide/setup`: how docs.json may write a page, and how we key it. */
export function normalizePageSlug(slug: string): string {
  return slug
    .trim()
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.mdx?$/, '')
}

/** The version/language of the tab at an index of `navigation.tabs` (from legacy.ts). */
export interface TabScope {
  version?: string
  language?: string
}

export function normalizeNavigation(
  navigation: unknown,
  tabScopes: readonly TabScope[] = [],
): NavigationTree {
  const nav = isObject(navigation) ? navigation : {}
  const tabs: NavTab[] = []
  const scopes: (TabScope | undefined)[] = []

  asArray(nav.tabs).forEach((entry, index) => {
    if (!isObject(entry)) return
    const tab: NavTab = { label: typeof entry.tab === 'string' ? entry.tab : '', items: itemsOf(entry) }
    if (typeof entry.icon === 'string') tab.icon = entry.icon
    if (typeof entry.href === 'string') tab.href = entry.href
    tabs.push(tab)
    scopes.push(tabScopes[index])
  })
  // Pages and groups outside any tab belong to the first tab (or form the implicit one).
  const topLevel = itemsOf(nav)
  const first = tabs[0]
  if (first) first.items.unshift(...topLevel)
  else tabs.push({ label: null, items: topLevel })

  const pages: PageLocation[] = []
  const seen = new Set<string>()
  tabs.forEach((tab, tabIndex) => {
    const visit = (items: NavItem[], groups: string[]) => {
      for (const item of items) {
        if (item.kind === 'group') visit(item.items, [...groups, item.label])
        else if (!seen.has(item.slug)) {
          seen.add(item.slug)
          const location: PageLocation = { slug: item.slug, tab: tabIndex, groups, hidden: item.hidden }
          const scope = scopes[tabIndex]
          if (scope?.version !== undefined) location.version = scope.version
          if (scope?.language !== undefined) location.language = scope.language
          pages.push(location)
        }
      }
    }
    visit(tab.items, [])
  })

  // `navigation.hidden`: reachable by URL, listed nowhere in the sidebar.
  const home = tabs[0]
  for (const entry of asArray(nav.hidden)) {
    if (typeof entry !== 'string' || !home) continue
    const slug = normalizePageSlug(entry)
    if (seen.has(slug)) continue
    seen.add(slug)
    home.items.push({ kind: 'page', slug, hidden: true })
    pages.push({ slug, tab: 0, groups: [], hidden: true })
  }

  const global = isObject(nav.global) ? nav.global : {}
  return {
    tabs,
    versions: asArray(nav.versions).flatMap((entry) => linkOf(entry, 'url')),
    languages: asArray(nav.languages).flatMap((entry) => {
      const links: (NavLink & { locale?: string })[] = linkOf(entry, 'url')
      const link = links[0]
      if (link && isObject(entry) && typeof entry.locale === 'string') link.locale = entry.locale
      return links
    }),
    global: {
      anchors: asArray(global.anchors).flatMap((entry) => linkOf(entry, 'href')),
      links: asArray(global.links).flatMap((entry) => linkOf(entry, 'href')),
    },
    pages,
  }
}

function linkOf(entry: unknown, hrefKey: 'href' | 'url'): NavLink[] {
  if (!isObject(entry) || typeof entry.label !== 'string' || typeof entry[hrefKey] !== 'string') return []
  const link: NavLink = { label: entry.label, href: entry[hrefKey] as string }
  if (typeof entry.icon === 'string') link.icon = entry.icon
  return [link]
}

/** The `pages` then `groups` of a tab or of the navigation itself; the first group starts expanded. */
function itemsOf(holder: Json): NavItem[] {
  const items = pageItems(holder.pages, false)
  asArray(holder.groups).forEach((group, index) => {
    const item = groupOf(group, index === 0, false)
    if (item) items.push(item)
  })
  return items
}

function pageItems(pages: unknown, hidden: boolean): NavItem[] {
  const items: NavItem[] = []
  for (const entry of asArray(pages)) {
    if (typeof entry === 'string') {
      const page: NavPage = { kind: 'page', slug: normalizePageSlug(entry), hidden }
      items.push(page)
    } else {
      const group = groupOf(entry, false, hidden)
      if (group) items.push(group)
    }
  }
  return items
}

function groupOf(entry: unknown, isFirst: boolean, parentHidden: boolean): NavGroup | undefined {
  if (!isObject(entry) || typeof entry.group !== 'string') return undefined
  const hidden = parentHidden || entry.hidden === true
  const group: NavGroup = {
    kind: 'group',
    label: entry.group,
    expanded: typeof entry.expanded === 'boolean' ? entry.expanded : isFirst,
    hidden,
    items: pageItems(entry.pages, hidden),
  }
  if (typeof entry.icon === 'string') group.icon = entry.icon
  return group
}
