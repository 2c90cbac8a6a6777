/**
 * Site paths and the relative URLs that reach them. A page `guide/setup` is served at
 * `guide/setup/index.html`, the root page `index` at `index.html` and a folder's own page
 * `guide/index` at `guide/index.html` (its URL is `/guide/`, as on the format's hosted platform), so
 * from `guide/setup` the page `quickstart` is `../../quickstart/` and the asset `images/a.png` is
 * `../../images/a.png`. Relative URLs let one build serve under any host and path prefix.
 */
import { joinPath } from './snippet-paths.js'

/** The site path of a page: `` for `index`, `guide/` for `guide/index` and `guide/setup/` for `guide/setup`. */
export function pageUrlPath(slug: string): string {
  const path = slug.replace(/(^|\/)index$/, '')
  return path === '' ? '' : `${path}/`
}

/** The prefix that climbs from a page's folder to the site root. */
export const rootPrefix = (slug: string): string => '../'.repeat(pageUrlPath(slug).split('/').length - 1)

/** A relative URL from page `fromSlug` to page `toSlug`. */
export const relativePageUrl = (fromSlug: string, toSlug: string): string =>
  rootPrefix(fromSlug) + pageUrlPath(toSlug) || './'

/** A relative URL from page `fromSlug` to the site file `path`. */
export const relativeAssetUrl = (fromSlug: string, path: string): string =>
  rootPrefix(fromSlug) + encodePath(path)

export const isExternal = (url: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')

export interface SiteTarget {
  /** Site path without leading slash, query or hash (`guide/setup`, `images/a.png`, `` for the root). */
  path: string
  /** `?query#hash` as written, to be kept. */
  suffix: string
}

/**
 * Where a site-internal URL written in page `file` points, or `undefined` for external, anchor-only and
 * unparseable URLs. `/x` is from the site root; `x`, `./x` and `../x` are from the page's folder.
 */
export function siteTarget(url: string, file: string): SiteTarget | undefined {
  if (url === '' || url.startsWith('#') || url.startsWith('?') || isExternal(url)) return undefined
  const split = url.search(/[?#]/)
  const rawPath = split === -1 ? url : url.slice(0, split)
  const suffix = split === -1 ? '' : url.slice(split)
  let decoded: string
  try {
    decoded = decodeURI(rawPath)
  } catch {
    return undefined
  }
  const folder = file.split('/').slice(0, -1).join('/')
  const path = decoded.startsWith('/') ? joinPath('', decoded) : joinPath(folder, decoded)
  if (path.startsWith('..')) return undefined
  return { path, suffix }
}

/** The page slug a site path names, trying `x`, `x.mdx`-less and `x/index`; `undefined` if none. */
export function pageSlugFor(path: string, pageSlugs: ReadonlySet<string>): string | undefined {
  const clean = path.replace(/\/+$/, '').replace(/\.mdx?$/, '')
  if (clean === '' || clean === 'index') return 'index'
  if (pageSlugs.has(clean)) return clean
  if (pageSlugs.has(`${clean}/index`)) return `${clean}/index`
  return undefined
}

const encodePath = (path: string): string => path.split('/').map(encodeURIComponent).join('/')
