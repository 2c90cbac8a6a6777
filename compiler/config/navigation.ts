/**
 * Normalises the `navigation` object of a validated docs.json into the one tree later stages use. The
 * format's navigation is recursive: `products`, `versions`, `languages`, `dropdowns`, `anchors`, `tabs`
 * and `menu` may sit at the top or inside one another, each holding groups and pages (groups nest in
 * groups). Every innermost section with pages becomes one sidebar (`NavTab`) that remembers the path of
 * sections above it; every page is listed once in navigation order with its sidebar and groups, and the
 * defaults are applied (the first group of a sidebar starts expanded; a hidden group hides its pages).
 */
import type {
  NavGroup,
  NavItem,
  NavigationTree,
  NavLink,
  NavPage,
  NavSection,
  NavSectionKind,
  NavTab,
  PageLocation,
} from './types.js'

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

/**
 * `"POST /v1/sessions"`, `"openapi.json GET /users"` or `"v3-openapi GET /users"` in a pages list: an OpenAPI operation whose page
 * the platform generates, not a `.mdx` file.
 */
export const isOperationReference = (entry: string): boolean =>
  /^(?:\S+\s+)?(?:get|post|put|patch|delete|head|options|trace|webhook)\s+\S/i.test(entry.trim())

/** The keys holding nested sections, in the order their sidebars are listed, and each entry's label key. */
export const SECTION_KEYS: readonly { key: string; kind: NavSectionKind; label: string }[] = [
  { key: 'products', kind: 'product', label: 'product' },
  { key: 'versions', kind: 'version', label: 'version' },
  { key: 'languages', kind: 'language', label: 'language' },
  { key: 'dropdowns', kind: 'dropdown', label: 'dropdown' },
  { key: 'anchors', kind: 'anchor', label: 'anchor' },
  { key: 'tabs', kind: 'tab', label: 'tab' },
  { key: 'menu', kind: 'menu', label: 'item' },
]

/** Keys whose presence makes a section hold navigation of its own (not only a link). */
const CONTENT_KEYS = ['groups', 'pages', 'root', ...SECTION_KEYS.map((section) => section.key)]

/** `versions`/`languages` entries written as `{ label, url }` are switcher links, not navigation. */
const holdsNavigation = (entry: unknown): boolean =>
  isObject(entry) && CONTENT_KEYS.some((key) => entry[key] !== undefined)

/** An icon as a name or `{ name, style, library }`: the name is what the icon set looks up. */
export function iconName(icon: unknown): string | undefined {
  if (typeof icon === 'string' && icon !== '') return icon
  if (isObject(icon) && typeof icon.name === 'string' && icon.name !== '') return icon.name
  return undefined
}

export function normalizeNavigation(navigation: unknown): NavigationTree {
  const nav = isObject(navigation) ? navigation : {}
  const tabs: NavTab[] = []
  collectSections(nav, [], tabs)
  if (tabs.length === 0) tabs.push({ label: null, items: [], path: [] })

  const pages: PageLocation[] = []
  const seen = new Set<string>()
  tabs.forEach((tab, tabIndex) => {
    const sectionHidden = tab.path.some((section) => section.hidden === true)
    const visit = (items: NavItem[], groups: string[]) => {
      for (const item of items) {
        if (item.kind === 'group') {
          if (item.root !== undefined) add(item.root, [...groups, item.label], item.hidden || sectionHidden)
          visit(item.items, [...groups, item.label])
        } else add(item.slug, groups, item.hidden || sectionHidden)
      }
    }
    const add = (slug: string, groups: string[], hidden: boolean) => {
      if (seen.has(slug)) return
      seen.add(slug)
      pages.push({ slug, tab: tabIndex, groups, hidden })
    }
    visit(tab.items, [])
  })

  // `navigation.hidden`: reachable by URL, listed nowhere in the sidebar.
  const home = tabs.find((tab) => !tab.href) ?? tabs[0]
  const homeIndex = home ? tabs.indexOf(home) : 0
  for (const entry of asArray(nav.hidden)) {
    if (typeof entry !== 'string' || !home) continue
    const slug = normalizePageSlug(entry)
    if (seen.has(slug)) continue
    seen.add(slug)
    home.items.push({ kind: 'page', slug, hidden: true })
    pages.push({ slug, tab: homeIndex, groups: [], hidden: true })
  }

  const global = isObject(nav.global) ? nav.global : {}
  return {
    tabs,
    versions: switcherLinks(nav.versions),
    languages: asArray(nav.languages).flatMap((entry) => {
      if (holdsNavigation(entry)) return []
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

/**
 * The sidebars of `holder` and of every section inside it, depth first. The holder's own pages and
 * groups form a sidebar of their own when it has no nested sections, and join the first nested
 * sidebar otherwise (the format lists them above the sections' content).
 */
function collectSections(holder: Json, path: NavSection[], tabs: NavTab[]): void {
  const own = itemsOf(holder)
  const first = tabs.length
  for (const { key, kind, label: labelKey } of SECTION_KEYS) {
    for (const entry of asArray(holder[key])) {
      if (!isObject(entry)) continue
      if ((kind === 'version' || kind === 'language') && !holdsNavigation(entry)) continue
      if (entry.hidden === true && !holdsNavigation(entry)) continue
      const section = sectionOf(entry, kind, labelKey)
      const inner = [...path, section]
      if (holdsNavigation(entry)) collectSections(entry, inner, tabs)
      else if (section.href !== undefined) tabs.push(tabOf(inner, []))
    }
  }
  const firstNested = tabs.slice(first).find((tab) => tab.href === undefined)
  if (firstNested) firstNested.items.unshift(...own)
  else if (own.length > 0 || path.length > 0) tabs.splice(first, 0, tabOf(path, own))
}

function tabOf(path: NavSection[], items: NavItem[]): NavTab {
  const last = path.at(-1)
  const tab: NavTab = { label: last?.label ?? null, items, path }
  if (last?.icon !== undefined) tab.icon = last.icon
  if (last?.href !== undefined && items.length === 0) tab.href = last.href
  return tab
}

function sectionOf(entry: Json, kind: NavSectionKind, labelKey: string): NavSection {
  const rawLabel = entry[labelKey] ?? entry.label ?? entry.name
  const section: NavSection = { kind, label: typeof rawLabel === 'string' ? rawLabel : kind }
  const icon = iconName(entry.icon)
  if (icon !== undefined) section.icon = icon
  const href = entry.href ?? entry.url
  if (typeof href === 'string' && href !== '') section.href = href
  if (typeof entry.description === 'string') section.description = entry.description
  if (entry.hidden === true) section.hidden = true
  if (typeof entry.locale === 'string') section.locale = entry.locale
  else if (kind === 'language' && typeof entry.language === 'string') {
    // `language` holds a code: readers choose among names written in their own language.
    section.locale = entry.language
    if (typeof entry.label !== 'string') section.label = languageName(entry.language)
  }
  return section
}

/** `fr` → `Français`; an unknown code stays as written. */
function languageName(code: string): string {
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code)
    return name && name !== code ? name.charAt(0).toLocaleUpperCase(code) + name.slice(1) : code
  } catch {
    return code
  }
}

function switcherLinks(entries: unknown): NavLink[] {
  return asArray(entries).flatMap((entry) => (holdsNavigation(entry) ? [] : linkOf(entry, 'url')))
}

function linkOf(entry: unknown, hrefKey: 'href' | 'url'): NavLink[] {
  if (!isObject(entry) || typeof entry.label !== 'string' || typeof entry[hrefKey] !== 'string') return []
  const link: NavLink = { label: entry.label, href: entry[hrefKey] as string }
  const icon = iconName(entry.icon)
  if (icon !== undefined) link.icon = icon
  return [link]
}

/** The `pages` then `groups` of a section or of the navigation itself; the first group starts expanded. */
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
      if (isOperationReference(entry)) continue
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
  // Groups nested in a group's `groups` (as well as in its `pages`).
  for (const nested of asArray(entry.groups)) {
    const inner = groupOf(nested, false, hidden)
    if (inner) group.items.push(inner)
  }
  const icon = iconName(entry.icon)
  if (icon !== undefined) group.icon = icon
  if (typeof entry.root === 'string' && entry.root !== '') group.root = normalizePageSlug(entry.root)
  if (typeof entry.tag === 'string') group.tag = entry.tag
  return group
}
