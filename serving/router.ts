/**
 * Which site file answers a URL path: one router for `docsctl dev` and the server, so both have the
 * same clean URLs. A page `guide/setup/index.html` is canonical at `/guide/setup/` (the compiler's
 * relative links assume the trailing slash); `/guide/setup`, `/guide/setup.html` and
 * `/guide/setup/index.html` redirect there. A page's `.md` export is its Markdown answer.
 */

import type { RedirectMatcher } from '../compiler/redirects.js'

/** The files a site has, by site path (`guide/setup/index.html`, `_assets/site.1a2b.css`). */
export interface SiteFileIndex {
  has(path: string): boolean
}

export type SiteRoute =
  /** A file answered as it is. */
  | { type: 'file'; path: string }
  /** An HTML page, and its `.md` export when the site has one (for `Accept: text/markdown`). */
  | { type: 'page'; path: string; markdown?: string }
  /**
   * `location` is from the site root (`/guide/setup/?x=1`; the caller adds any mount path) or, for a
   * docs.json redirect, may be an absolute URL. `status` is set for docs.json redirects (307/308).
   */
  | { type: 'redirect'; location: string; status?: 307 | 308 }
  | { type: 'not-found' }

export type ParsedSiteUrl = { path: string; query: string } | { invalid: string }

/** Splits a request URL into its decoded path (with the leading `/`) and raw query; refuses unsafe paths. */
export function parseSiteUrl(rawUrl: string): ParsedSiteUrl {
  const queryAt = rawUrl.indexOf('?')
  const query = queryAt === -1 ? '' : rawUrl.slice(queryAt)
  let path: string
  try {
    path = decodeURIComponent(queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt))
  } catch {
    return { invalid: 'Malformed percent-encoding in the path' }
  }
  if (!path.startsWith('/') || path.includes('\0') || path.includes('\\') || path.split('/').includes('..')) {
    return { invalid: 'Invalid path' }
  }
  return { path, query }
}

/** The page slug of a page's output file: `index.html` → `index`, `guide/setup/index.html` → `guide/setup`. */
export function pageSlugOf(path: string): string | undefined {
  if (path === 'index.html') return 'index'
  return path.endsWith('/index.html') ? path.slice(0, -'/index.html'.length) : undefined
}

/** The `.md` export beside a page's output file. */
const markdownOf = (page: string): string => `${pageSlugOf(page) ?? page}.md`

/**
 * `key` is the decoded path without its leading `/` (`''` for the root); `query` (`''` or `?…`) is
 * kept on redirects.
 */
export function routeSitePath(
  key: string,
  query: string,
  files: SiteFileIndex,
  redirects?: RedirectMatcher,
): SiteRoute {
  // docs.json redirects come first, as on the hosted platform: a moved page's meta-refresh stand-in
  // must not answer 200. The theme's hashed assets are never redirected.
  if (redirects && !key.startsWith('_assets/')) {
    const moved = redirects.match(`/${key}`, query)
    if (moved) return { type: 'redirect', location: moved.location, status: moved.status }
  }
  const redirect = (to: string): SiteRoute => ({ type: 'redirect', location: `/${encodeURI(to)}${query}` })
  const page = (path: string): SiteRoute => {
    const markdown = markdownOf(path)
    return files.has(markdown) ? { type: 'page', path, markdown } : { type: 'page', path }
  }
  if (key === '' || key.endsWith('/')) {
    const index = `${key}index.html`
    if (files.has(index)) return page(index)
    const asFile = key.slice(0, -1)
    if (asFile && files.has(asFile)) return redirect(asFile)
    return { type: 'not-found' }
  }
  if (key === 'index.html' || key.endsWith('/index.html')) {
    if (files.has(key)) return redirect(key.slice(0, -'index.html'.length))
  } else if (files.has(key)) {
    return { type: 'file', path: key }
  }
  if (files.has(`${key}/index.html`)) return redirect(`${key}/`)
  if (key.endsWith('.html') && files.has(`${key.slice(0, -5)}/index.html`))
    return redirect(`${key.slice(0, -5)}/`)
  return { type: 'not-found' }
}

/** True when the request prefers a page's Markdown export over its HTML. */
export const wantsMarkdown = (accept: string | undefined): boolean => /\btext\/markdown\b/.test(accept ?? '')
