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
  /** A page the group's label opens (`root`); it is not listed again among `items`. */
  root?: string
  /** Badge beside the label. */
  tag?: string
  /** Pages and nested groups, in order. */
  items: NavItem[]
}

export type NavItem = NavPage | NavGroup

/** The levels of the format's recursive navigation, each rendered its own way by the shell. */
export type NavSectionKind = 'product' | 'version' | 'language' | 'dropdown' | 'anchor' | 'tab' | 'menu'

/**
 * One entry of `tabs`, `anchors`, `dropdowns`, `products`, `versions`, `languages` or `menu`. The same
 * object is shared by every sidebar beneath it, so sections compare by identity.
 */
export interface NavSection {
  kind: NavSectionKind
  label: string
  icon?: string
  /** A link out instead of (or besides) its own navigation. */
  href?: string
  description?: string
  /** `languages`: the BCP 47 code. */
  locale?: string
  /** Left out of switchers and tab bars; its pages stay reachable by URL (and count as hidden). */
  hidden?: boolean
}

/**
 * One sidebar: a leaf of the navigation tree. `path` holds the sections above it, outermost first;
 * the tree is the union of the paths.
 */
export interface NavTab {
  /** Label of the innermost section; `null` for the implicit single sidebar of a site without sections. */
  label: string | null
  icon?: string
  /** A section that only links out: it navigates away and has no sidebar. */
  href?: string
  items: NavItem[]
  path: NavSection[]
}

/** Where one page sits in the tree. */
export interface PageLocation {
  slug: string
  /** Index into `NavigationTree.tabs` (its sidebar). */
  tab: number
  /** Labels of the enclosing groups, outermost first (empty for a page directly in a tab). */
  groups: string[]
  hidden: boolean
}

export interface NavigationTree {
  /** Every sidebar, in navigation order. */
  tabs: NavTab[]
  /** `versions`/`languages` written as `{ label, url }` links rather than navigation of their own. */
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
