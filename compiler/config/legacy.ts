/**
 * The hosted platform's navigation, mapped onto ours. Real sites use `anchors`, `dropdowns` and
 * `products` (sections above tabs), `versions`/`languages` holding their own navigation, `menu` items
 * inside tabs, groups nested in a group's `pages`, `anchor`/`name`/`url` on links and a top-level
 * `anchors` list. Strict mode reports each one as not
 * supported here; lenient mode applies the mapping below and warns. A migration command can write
 * `mapLegacyConfig(...).config` out as a converted docs.json.
 */
import type { JsonPath } from './json-source.js'

export interface LegacyChange {
  /** Where the construct is in the source document. */
  path: JsonPath
  /** Report at the key (`"anchors": …`) or at the value (a nested group object). */
  at: 'key' | 'value'
  rule: string
  /** Strict-mode wording: what is not supported and what to write instead. */
  unsupported: string
  /** Lenient-mode wording: what the mapping did. */
  mapped: string
}

/** A part of the converted config that came from a different place in the source. */
export interface LegacyOrigin {
  converted: JsonPath
  source: JsonPath
}

/** The version or language a converted tab belongs to (hosted-platform versions/languages). */
export interface NavigationScope {
  version?: string
  language?: string
}

export interface LegacyMapping {
  config: unknown
  changes: LegacyChange[]
  origins: LegacyOrigin[]
  /** Scope of each entry of the converted `navigation.tabs`, by index. */
  tabScopes: NavigationScope[]
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** Sections above tabs, and the key holding each one's label. */
const sectionKinds = [
  { key: 'anchors', label: 'anchor', noun: 'anchor' },
  { key: 'dropdowns', label: 'dropdown', noun: 'dropdown' },
  { key: 'products', label: 'product', noun: 'product' },
  { key: 'versions', label: 'version', noun: 'version' },
  { key: 'languages', label: 'language', noun: 'language' },
] as const

/** The hosted platform's version/language entries carry a `version`/`language` name or navigation. */
const hostedScopeKeys = ['version', 'language', 'tabs', 'groups', 'pages', 'anchors', 'dropdowns', 'products']
const isHostedScope = (entry: unknown): boolean =>
  isObject(entry) && hostedScopeKeys.some((key) => entry[key] !== undefined)

/** The first page slug listed in a tab, depth first. */
function firstPageOf(node: unknown): string | undefined {
  if (typeof node === 'string') return node
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = firstPageOf(item)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (!isObject(node)) return undefined
  return firstPageOf(node.pages) ?? firstPageOf(node.groups)
}

export function mapLegacyConfig(raw: unknown): LegacyMapping {
  const changes: LegacyChange[] = []
  const origins: LegacyOrigin[] = []
  if (!isObject(raw)) return { config: raw, changes, origins, tabScopes: [] }
  const config: Json = { ...raw }
  const tabs: unknown[] = []
  const tabScopes: NavigationScope[] = []

  const navigation = isObject(config.navigation) ? { ...config.navigation } : undefined
  if (navigation) {
    config.navigation = navigation
    const hadTabs = Array.isArray(navigation.tabs)
    collect(navigation, ['navigation'], {}, true)
    if (tabs.length > 0 || hadTabs) navigation.tabs = tabs
    mapGlobalLinks(navigation, changes)
  }

  // The older top-level `anchors: [{ name, url, icon }]` are links shown across all tabs.
  if (Array.isArray(config.anchors)) {
    const anchors = config.anchors
    changes.push({
      path: ['anchors'],
      at: 'key',
      rule: 'unsupported-navigation',
      unsupported:
        'top-level "anchors" is not supported here; use navigation.global.anchors with { "label", "href" }',
      mapped: 'top-level "anchors" mapped onto navigation.global.anchors',
    })
    delete config.anchors
    const target = isObject(config.navigation) ? config.navigation : undefined
    if (target) {
      const global = isObject(target.global) ? { ...target.global } : {}
      const existing = Array.isArray(global.anchors) ? [...global.anchors] : []
      anchors.forEach((anchor, index) => {
        origins.push({
          converted: ['navigation', 'global', 'anchors', existing.length],
          source: ['anchors', index],
        })
        existing.push(isObject(anchor) ? renameLinkKeys(anchor) : anchor)
      })
      global.anchors = existing
      target.global = global
    }
  }

  findNestedGroups(raw.navigation, ['navigation'], changes)
  return { config, changes, origins, tabScopes }

  /**
   * Gathers the tabs of `holder` (the navigation, or a section/version/language inside it) into
   * `tabs`: its own tabs, then each section's. A section's direct groups/pages become one tab.
   */
  function collect(holder: Json, holderPath: JsonPath, scope: NavigationScope, isTop: boolean): void {
    if (Array.isArray(holder.tabs)) {
      holder.tabs.forEach((tab, index) => {
        const converted: JsonPath = ['navigation', 'tabs', tabs.length]
        const source: JsonPath = [...holderPath, 'tabs', index]
        if (!isTop) origins.push({ converted, source })
        tabs.push(mapTab(tab, converted, source))
        tabScopes.push(scope)
      })
    }
    for (const kind of sectionKinds) {
      const sections = holder[kind.key]
      if (!Array.isArray(sections)) continue
      const scoped = kind.key === 'versions' || kind.key === 'languages'
      // `versions`/`languages` of { label, url } are ours: links, not navigation.
      if (scoped && !sections.some(isHostedScope)) continue
      changes.push({
        path: [...holderPath, kind.key],
        at: 'key',
        rule: 'unsupported-navigation',
        unsupported: scoped
          ? `"${kind.key}" with their own navigation are not supported here; keep one navigation and list ${kind.key} as { "label", "url" } links`
          : `"${kind.key}" is not supported here; use "tabs" (each ${kind.noun} becomes a tab)`,
        mapped: scoped
          ? `"${kind.key}" with their own navigation mapped onto tabs`
          : `"${kind.key}" mapped onto tabs (each ${kind.noun} becomes a tab)`,
      })
      if (isTop) delete holder[kind.key]
      const links: Json[] = []
      sections.forEach((section, sectionIndex) => {
        const sectionPath: JsonPath = [...holderPath, kind.key, sectionIndex]
        if (!isObject(section)) {
          if (scoped) return
          origins.push({ converted: ['navigation', 'tabs', tabs.length], source: sectionPath })
          tabs.push(section)
          tabScopes.push(scope)
          return
        }
        const rawLabel = section[kind.label] ?? section.name ?? section.label
        const label = typeof rawLabel === 'string' ? rawLabel : kind.noun
        const inner: NavigationScope =
          kind.key === 'versions'
            ? { ...scope, version: label }
            : kind.key === 'languages'
              ? { ...scope, language: label }
              : scope
        const first = tabs.length
        collect(section, sectionPath, inner, false)
        if (['groups', 'pages', 'href', 'menu'].some((key) => section[key] !== undefined)) {
          const tab: Json = { tab: label }
          for (const key of ['icon', 'href', 'groups', 'pages', 'menu'] as const) {
            if (section[key] !== undefined) tab[key] = section[key]
          }
          const converted: JsonPath = ['navigation', 'tabs', tabs.length]
          origins.push({ converted, source: sectionPath })
          origins.push({ converted: [...converted, 'tab'], source: [...sectionPath, kind.label] })
          tabs.push(mapTab(tab, converted, sectionPath))
          tabScopes.push(inner)
        }
        if (scoped) {
          const firstPage = tabs
            .slice(first)
            .map(firstPageOf)
            .find((slug) => slug !== undefined)
          const link: Json = {
            label,
            url: firstPage === undefined ? '/' : `/${firstPage.replace(/^\//, '')}`,
          }
          if (kind.key === 'languages') link.locale = label
          links.push(link)
        }
      })
      if (scoped) {
        const existing =
          Array.isArray(navigation?.[kind.key]) && !isTop ? (navigation?.[kind.key] as unknown[]) : []
        if (navigation) navigation[kind.key] = [...existing, ...links]
      }
    }
  }

  function mapTab(tab: unknown, converted: JsonPath, source: JsonPath): unknown {
    if (!isObject(tab) || !Array.isArray(tab.menu)) return tab
    changes.push({
      path: [...source, 'menu'],
      at: 'key',
      rule: 'unsupported-navigation',
      unsupported: '"menu" is not supported here; use "groups" (each menu item becomes a group)',
      mapped: '"menu" mapped onto groups (each menu item becomes a group)',
    })
    const { menu, ...rest } = tab
    const groups: unknown[] = Array.isArray(rest.groups) ? [...rest.groups] : []
    ;(menu as unknown[]).forEach((item, itemIndex) => {
      const itemPath = [...source, 'menu', itemIndex]
      const groupPath = [...converted, 'groups', groups.length]
      origins.push({ converted: groupPath, source: itemPath })
      if (!isObject(item)) {
        groups.push(item)
        return
      }
      const pages: unknown[] = Array.isArray(item.pages) ? [...item.pages] : []
      if (Array.isArray(item.groups)) {
        item.groups.forEach((group, groupIndex) => {
          origins.push({
            converted: [...groupPath, 'pages', pages.length],
            source: [...itemPath, 'groups', groupIndex],
          })
          pages.push(group)
        })
      }
      origins.push({ converted: [...groupPath, 'group'], source: [...itemPath, 'item'] })
      const group: Json = { group: typeof item.item === 'string' ? item.item : 'Menu', pages }
      if (typeof item.icon === 'string') group.icon = item.icon
      groups.push(group)
    })
    return { ...rest, groups }
  }
}

/** `{ anchor | name, href | url }` → `{ label, href }`, the shape of our links. */
function renameLinkKeys(link: Json): Json {
  const { anchor, name, url, ...rest } = link
  const label = rest.label ?? anchor ?? name
  const href = rest.href ?? url
  return { ...rest, ...(label !== undefined && { label }), ...(href !== undefined && { href }) }
}

function mapGlobalLinks(navigation: Json, changes: LegacyChange[]): void {
  if (!isObject(navigation.global)) return
  const global = { ...navigation.global }
  for (const list of ['anchors', 'links'] as const) {
    const links = global[list]
    if (!Array.isArray(links)) continue
    global[list] = links.map((link, index) => {
      if (!isObject(link)) return link
      for (const [key, ours] of [
        ['anchor', 'label'],
        ['name', 'label'],
        ['url', 'href'],
      ] as const) {
        if (link[key] !== undefined && link[ours] === undefined) {
          changes.push({
            path: ['navigation', 'global', list, index, key],
            at: 'key',
            rule: 'unsupported-key',
            unsupported: `"${key}" is not supported here; rename it to "${ours}"`,
            mapped: `"${key}" read as "${ours}"`,
          })
        }
      }
      return renameLinkKeys(link)
    })
  }
  navigation.global = global
}

/** Groups written inside a group's `pages` (ours are flat lists of slugs). */
function findNestedGroups(value: unknown, path: JsonPath, changes: LegacyChange[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      findNestedGroups(item, [...path, index], changes)
    })
    return
  }
  if (!isObject(value)) return
  for (const [key, child] of Object.entries(value)) {
    if (key === 'pages' && Array.isArray(child) && isObject(value) && path.length > 0) {
      child.forEach((entry, index) => {
        if (isObject(entry) && typeof entry.group === 'string') {
          changes.push({
            path: [...path, 'pages', index],
            at: 'value',
            rule: 'unsupported-navigation',
            unsupported: `nested group "${entry.group}" is not supported here; list its pages in a group of their own`,
            mapped: `nested group "${entry.group}" kept as a sub-group`,
          })
        }
      })
    }
    findNestedGroups(child, [...path, key], changes)
  }
}

/** Where a path of the converted config came from in the source document. */
export function sourcePathOf(path: JsonPath, origins: readonly LegacyOrigin[]): JsonPath {
  let best: LegacyOrigin | undefined
  for (const origin of origins) {
    const isPrefix =
      origin.converted.length <= path.length && origin.converted.every((segment, i) => path[i] === segment)
    if (isPrefix && (!best || origin.converted.length > best.converted.length)) best = origin
  }
  return best ? [...best.source, ...path.slice(best.converted.length)] : path
}
