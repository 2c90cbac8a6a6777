/**
 * The shapes that compiler/config/ produces and every later stage consumes. `DocsConfig` is docs.json
 * after validation (lenient mode: unknown keys dropped; legacy navigation mapped onto ours).
 * `NavigationTree` is navigation normalised into one tree: the sidebar, tabs and page order come
 * only from here.
 */
import type { DocsJson } from '../../schemas/generated/docs-json.js'
import type { Diagnostic } from '../diagnostics.js'

export type ValidationMode = 'strict' | 'lenient'

/** docs.json as its schema describes it (types generated from schemas/docs.schema.json). */
export type DocsConfig = DocsJson

export interface NavLink {
  label: string
  href: string
  icon?: string
}

export interface NavPage {
  kind: 'page'
  /** Page slug as written in docs.json, normalised: no leading slash, no extension. */
  slug: string
  /** Hidden from the sidebar (navigation.hidden, a hidden group, or front matter `hidden`). */
  hidden: boolean
}

export interface NavGroup {
  kind: 'group'
  label: string
  expanded: boolean
  hidden: boolean
  icon?: string
  /** Pages and nested groups, in order. */
  items: NavItem[]
}

export type NavItem = NavPage | NavGroup

export interface NavTab {
  /** `null` for the implicit single tab of a site without tabs. */
  label: string | null
  icon?: string
  /** An external tab: navigates away and has no sidebar. */
  href?: string
  items: NavItem[]
}

/** Where one page sits in the tree. */
export interface PageLocation {
  slug: string
  /** Index into `NavigationTree.tabs`. */
  tab: number
  /** Labels of the enclosing groups, outermost first (empty for a page directly in a tab). */
  groups: string[]
  version?: string
  language?: string
  hidden: boolean
}

export interface NavigationTree {
  tabs: NavTab[]
  versions: NavLink[]
  languages: (NavLink & { locale?: string })[]
  global: { anchors: NavLink[]; links: NavLink[] }
  /** Every page of the navigation (hidden ones included), in navigation order, each once. */
  pages: PageLocation[]
}

export interface LoadedConfig {
  /** `undefined` when docs.json could not be read at all (then diagnostics holds errors). */
  config: DocsConfig | undefined
  navigation: NavigationTree | undefined
  diagnostics: Diagnostic[]
}
