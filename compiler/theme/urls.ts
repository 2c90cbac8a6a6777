/**
 * Every URL the shell writes is relative to the page, so one build serves at `{slug}.{base_domain}/`
 * and under any path prefix. A page `guide/setup` lives at `guide/setup/index.html`; the root page
 * `index` at `index.html`; a folder's page `guide/index` at `guide/index.html` (content/links.ts).
 */
import { pageUrlPath, rootPrefix } from '../content/links.js'
import { urlProblem } from '../url-policy.js'

export { pageUrlPath, rootPrefix }

/** The output file of a page slug. */
export const pageOutputPath = (slug: string): string => `${pageUrlPath(slug)}index.html`

/** The `.md` export of a page slug. */
export const markdownOutputPath = (slug: string): string =>
  slug === 'index' ? 'index.md' : `${pageUrlPath(slug).slice(0, -1)}.md`

/** The shell's slug for files at the site root that are not pages (404.html): no page is current. */
export const ROOT_FILE_SLUG = ''

/** The relative link from page `fromSlug` to the site path `sitePath` (a file or `slug/`). */
export const siteHref = (fromSlug: string, sitePath: string): string =>
  rootPrefix(fromSlug) + sitePath || './'

/** The relative link from one page to another page. */
export const pageHref = (fromSlug: string, toSlug: string): string => siteHref(fromSlug, pageUrlPath(toSlug))

export const isExternal = (href: string): boolean =>
  /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')

/**
 * A link written in docs.json (navbar, anchors, versions): external URLs stay as they are, `/path`
 * and `path` are site paths made relative to the page.
 */
export function configHref(fromSlug: string, href: string): string {
  // docs.json is checked when loaded (config/url-fields.ts); this keeps the shell safe on its own too.
  if (urlProblem(href, 'link')) return '#'
  if (isExternal(href) || href.startsWith('#')) return href
  const [path = '', hash = ''] = href.replace(/^\/+/, '').split(/(?=#)/)
  const clean = path.replace(/\.mdx?$/, '')
  if (clean === '' || clean === 'index') return siteHref(fromSlug, '') + hash
  const looksLikeFile = /\.[a-z0-9]+$/i.test(clean) || clean.endsWith('/')
  return siteHref(fromSlug, looksLikeFile ? clean : `${clean}/`) + hash
}
