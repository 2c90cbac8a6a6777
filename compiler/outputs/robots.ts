/**
 * robots.txt. `seo.indexing: "all"` or "navigable" both allow crawling; pages with `noindex` (and,
 * under "navigable", pages outside the navigation) are disallowed. The Sitemap line needs the
 * request's host, so the server appends it.
 */
import { pageUrlPath } from '../content/links.js'

export function renderRobotsTxt(disallowedSlugs: readonly string[]): string {
  const lines = ['User-agent: *', 'Allow: /']
  for (const slug of [...disallowedSlugs].sort()) lines.push(`Disallow: /${pageUrlPath(slug)}`)
  return `${lines.join('\n')}\n`
}
