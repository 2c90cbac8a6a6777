/**
 * The navigation levels above a sidebar, as the shell shows them: at each level of the current
 * sidebar's path, the sections a reader can switch to. Tabs become the tab bar, anchors a list at the
 * top of the sidebar, dropdowns and menus a menu above it, and products, versions and languages a
 * switcher in the header that keeps the reader on the matching page of the other section.
 */
import type { NavSection, NavSectionKind } from '../config/types.js'
import type { SiteContext } from './context.js'

/** The sections a reader can switch between at one level, the current one among them. */
export interface SectionChoice {
  kind: NavSectionKind
  /** The section of the current sidebar, when it is of this kind (sibling levels may mix kinds). */
  current?: NavSection
  options: NavSection[]
}

/** Facts about the site's sections, computed once per site. */
interface SectionIndex {
  /** Visible built pages under each section, in navigation order. */
  pages: Map<NavSection, string[]>
  /** The choices above each sidebar (by tab index). */
  choices: SectionChoice[][]
}

const indexes = new WeakMap<SiteContext, SectionIndex>()

function sectionIndex(site: SiteContext): SectionIndex {
  const cached = indexes.get(site)
  if (cached) return cached
  const { tabs } = site.navigation
  const pages = new Map<NavSection, string[]>()
  for (const location of site.navigation.pages) {
    if (location.hidden || !site.pages.has(location.slug) || site.pages.get(location.slug)?.hidden) continue
    for (const section of tabs[location.tab]?.path ?? []) {
      const list = pages.get(section) ?? []
      list.push(location.slug)
      pages.set(section, list)
    }
  }
  const choices = tabs.map((tab) =>
    tab.path.flatMap((current, level) => {
      // Sections at this level under the same parents, in order, each once, grouped by kind.
      const byKind = new Map<NavSectionKind, SectionChoice>()
      for (const other of tabs) {
        const candidate = other.path[level]
        if (!candidate || !tab.path.slice(0, level).every((section, at) => other.path[at] === section))
          continue
        let choice = byKind.get(candidate.kind)
        if (!choice) {
          choice = { kind: candidate.kind, options: [] }
          byKind.set(candidate.kind, choice)
        }
        // A hidden section is offered only to readers already in it.
        if (candidate.hidden && candidate !== current) continue
        if (!choice.options.includes(candidate)) choice.options.push(candidate)
        if (candidate === current) choice.current = current
      }
      return [...byKind.values()]
    }),
  )
  const index = { pages, choices }
  indexes.set(site, index)
  return index
}

export function sectionChoices(site: SiteContext, tabIndex: number): SectionChoice[] {
  return sectionIndex(site).choices[tabIndex] ?? []
}

/** The first visible page under a section, where a link to it leads. */
export function firstPageOf(site: SiteContext, section: NavSection): string | undefined {
  return sectionIndex(site).pages.get(section)?.[0]
}

/**
 * The page of `target` that matches `slug` of `current`: the same page when both list it, else the
 * same path under the other section's folder (`fr/quickstart` for `quickstart`, `v2/api` for
 * `v3/api`), else the target's first page.
 */
export function matchingPage(
  site: SiteContext,
  slug: string,
  current: NavSection | undefined,
  target: NavSection,
): string | undefined {
  const index = sectionIndex(site)
  const targetPages = index.pages.get(target) ?? []
  if (targetPages.includes(slug)) return slug
  if (!current) return targetPages[0]
  const from = folderOf(index.pages.get(current) ?? [])
  const to = folderOf(targetPages)
  if (from !== to && slug.startsWith(from)) {
    const candidate = to + slug.slice(from.length)
    if (targetPages.includes(candidate)) return candidate
    if (candidate === to && targetPages.includes(`${to}index`)) return `${to}index`
  }
  return targetPages[0]
}

/** The folder every page of a section shares (`fr/`, `sdk/v2/`), or `` when they share none. */
function folderOf(slugs: readonly string[]): string {
  const [first, ...rest] = slugs
  if (first === undefined) return ''
  let folder = first.slice(0, first.lastIndexOf('/') + 1)
  for (const slug of rest) {
    while (folder !== '' && !slug.startsWith(folder))
      folder = folder.slice(0, folder.lastIndexOf('/', folder.length - 2) + 1)
  }
  return folder
}
