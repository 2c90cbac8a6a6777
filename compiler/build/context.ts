/**
 * Stage 5 of `buildSite`: what every page's shell reads about the site.
 * In: docs.json, the navigation tree, every page with the bodies this build rendered (and the site's
 * files, for the front matter of pages it did not render), the build options.
 * Out: the site context of theme/: page summaries for the sidebar (title, badges, icon), the first
 * page of each tab, navigation indexes, and the paths of the theme's script, stylesheet and search
 * index. The assets stage adds the site's own stylesheets to it.
 */
import type { DocsConfig, NavigationTree, ValidationMode } from '../config/types.js'
import { type FrontMatter, readFrontMatter } from '../content/frontmatter.js'
import type { RenderedPage } from '../content/render-page.js'
import type { SourceFiles } from '../files.js'
import { parseOperationReference } from '../openapi/sources.js'
import { SEARCH_INDEX_PATH } from '../outputs/search-index.js'
import { themeFiles } from '../theme/assets.js'
import type { PageSummary, SiteContext } from '../theme/context.js'
import { iconSvg } from '../theme/icons.js'
import { indexLocations, indexNeighbours } from '../theme/navigation.js'
import type { BuildOptions } from '../types.js'
import type { SitePage } from './discover.js'

export function siteContext(
  config: DocsConfig,
  navigation: NavigationTree,
  pages: readonly SitePage[],
  rendered: ReadonlyMap<string, RenderedPage>,
  files: SourceFiles,
  options: BuildOptions,
): SiteContext {
  const summaries = new Map<string, PageSummary>()
  for (const page of pages) {
    const front = rendered.get(page.slug)?.frontMatter ?? frontMatterOf(files, page.file, options.mode)
    if (!front) continue
    const summary: PageSummary = { title: front.title }
    if (front.sidebarTitle) summary.sidebarTitle = front.sidebarTitle
    if (front.url) summary.url = front.url
    if (front.tag) summary.tag = front.tag
    if (front.deprecated) summary.deprecated = true
    if (front.hidden) summary.hidden = true
    const method = apiMethodOf(front)
    if (method) summary.method = method
    const icon = front.icon ? iconSvg(front.icon, front.iconType) : undefined
    if (icon) summary.iconSvg = icon
    summaries.set(page.slug, summary)
  }
  const firstPageOfTab = navigation.tabs.map(
    (_, tab) =>
      navigation.pages.find(
        (location) => location.tab === tab && !location.hidden && summaries.has(location.slug),
      )?.slug,
  )
  const theme = themeFiles()
  const context: SiteContext = {
    config,
    navigation,
    pages: summaries,
    firstPageOfTab,
    locations: indexLocations(navigation),
    neighbours: indexNeighbours(navigation, (slug) => summaries.has(slug) && !summaries.get(slug)?.hidden),
    assets: { css: theme.cssPath, js: theme.jsPath, apiJs: theme.apiJsPath, searchIndex: SEARCH_INDEX_PATH },
    iconSvg: (name) => iconSvg(name, undefined),
  }
  if (options.analytics) context.analytics = options.analytics
  return context
}

/** The HTTP method an API page documents (`openapi:` or `api:`), for its sidebar badge; none with `hideApiMarker`. */
function apiMethodOf(front: FrontMatter): string | undefined {
  if (front.hideApiMarker === true) return undefined
  const written =
    typeof front.openapi === 'string' ? front.openapi : typeof front.api === 'string' ? front.api : undefined
  return written ? parseOperationReference(written)?.method : undefined
}

/**
 * Front matter of a page that was not rendered in this build (docsctl dev renders on demand), for
 * its sidebar label. Remembered per file contents: the dev server keeps unchanged files' bytes, so
 * each request does not parse every page of a large site again.
 */
const frontMatterByBytes = new WeakMap<Uint8Array, FrontMatter | undefined>()

function frontMatterOf(files: SourceFiles, file: string, mode: ValidationMode): FrontMatter | undefined {
  const bytes = files.get(file)
  if (!bytes) return undefined
  if (frontMatterByBytes.has(bytes)) return frontMatterByBytes.get(bytes)
  const data = readFrontMatter(new TextDecoder().decode(bytes), file, mode).data
  frontMatterByBytes.set(bytes, data)
  return data
}
