/** What the shell templates need about the whole site, computed once per build. */
import type { DocsConfig, NavigationTree, PageLocation } from '../config/types.js'
import type { AnalyticsSettings } from '../types.js'
import type { PageNeighbours } from './navigation.js'

/** Sidebar and pagination facts about one page, from its front matter. */
export interface PageSummary {
  title: string
  sidebarTitle?: string
  /** Inline SVG of the page's icon, when it has one the icon set knows. */
  iconSvg?: string
  /** Front matter `url`: the navigation entry links out instead of to the page. */
  url?: string
  tag?: string
  /** `GET`, `POST`… of an API page, shown as a badge (front matter `hideApiMarker` leaves it out). */
  method?: string
  deprecated?: boolean
  hidden?: boolean
}

/** Site paths (relative to the root) of the hashed theme files. */
export interface ThemeAssetPaths {
  css: string
  js: string
  /** The API pages' "Try it" script, loaded only by pages with a playground. */
  apiJs: string
  searchIndex: string
  /** The site's Tailwind stylesheet (compiler/theme/tailwind.ts), linked only by pages that use its classes. */
  tailwindCss?: string
  /** The site's stylesheets (`style.css`, `styles/route.css`), linked by every page after the theme's. */
  stylesheets?: readonly string[]
  /**
   * The version (`?v=`, content/asset-version.ts) of each author file the shell links, by site path: the
   * site's stylesheets, logo and favicon, so a page never loads the next deployment's copy of them.
   */
  versions?: Readonly<Record<string, string>>
}

export interface SiteContext {
  config: DocsConfig
  navigation: NavigationTree
  pages: ReadonlyMap<string, PageSummary>
  /** The first visible page of each tab (by tab index), where a tab link leads. */
  firstPageOfTab: readonly (string | undefined)[]
  /** Navigation facts by page slug and pagination neighbours, indexed once per build. */
  locations: ReadonlyMap<string, PageLocation>
  neighbours: ReadonlyMap<string, PageNeighbours>
  assets: ThemeAssetPaths
  /** Icon SVG by name for group and tab icons from docs.json. */
  iconSvg: (name: string) => string | undefined
  analytics?: AnalyticsSettings
}

/** The page being wrapped by the shell. */
export interface ShellPage {
  slug: string
  title: string
  description?: string
  html: string
  toc: { depth: 2 | 3; id: string; text: string }[]
  frontMatter: Record<string, unknown>
  /** The page shows math: link KaTeX's stylesheet. */
  math?: boolean
  /** The page has a Mermaid diagram: load the mermaid bundle and the script that draws it. */
  mermaid?: boolean
  /** The page uses a class of the site's Tailwind stylesheet: link it. */
  tailwind?: boolean
}
