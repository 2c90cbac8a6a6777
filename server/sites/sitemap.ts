/**
 * Files that need the request's host: `sitemap.xml` (absolute URLs of every indexable page) and
 * `robots.txt` (the compiler's rules, moved under the mount path, plus the `Sitemap:` line).
 */
import escapeHtml from 'escape-html'
import type { RedirectMatcher } from '../../compiler/redirects.js'

// The HTML escaper's five entities (`&#39;` for `'`) are XML's too.
const escapeXml = escapeHtml

/** `guide/setup/index.html` → `guide/setup/`, `index.html` → ``; other files are not pages. */
export function pageUrlPath(path: string): string | undefined {
  if (path === 'index.html') return ''
  if (path.endsWith('/index.html')) return path.slice(0, -'index.html'.length)
  return undefined
}

/** The `Disallow:` paths of a robots.txt (`/internal/`), which the sitemap leaves out. */
export function disallowedPaths(robots: string | undefined): string[] {
  if (!robots) return []
  return robots
    .split('\n')
    .map((line) => /^Disallow:\s*(\S+)/i.exec(line.trim())?.[1])
    .filter((path): path is string => path !== undefined && path !== '')
}

export function renderSitemap(
  /** Every path of the deployment. */
  paths: readonly string[],
  base: string,
  disallowed: readonly string[] = [],
  /** A moved page's meta-refresh stand-in is not a page to index. */
  redirects?: RedirectMatcher,
): string {
  const urls = paths
    .map(pageUrlPath)
    .filter((path): path is string => path !== undefined)
    .filter((path) => !disallowed.some((rule) => `/${path}`.startsWith(rule)))
    .filter((path) => !redirects?.match(`/${path}`))
    .sort()
    .map((path) => `  <url><loc>${escapeXml(`${base}/${encodeURI(path)}`)}</loc></url>`)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}

/**
 * The compiler's robots.txt with its paths under `pathPrefix` and a `Sitemap:` line for this host.
 * Previews are never crawled.
 */
export function renderRobots(
  robots: string | undefined,
  base: string,
  pathPrefix: string,
  preview: boolean,
): string {
  if (preview) return 'User-agent: *\nDisallow: /\n'
  const lines = (robots ?? 'User-agent: *\nAllow: /\n')
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^Sitemap:/i.test(line.trim()))
    .map((line) =>
      line.replace(
        /^(Allow|Disallow):\s*(\/\S*)/i,
        (_match, rule: string, path: string) => `${rule}: ${pathPrefix}${path}`,
      ),
    )
  return `${lines.join('\n')}\nSitemap: ${base}/sitemap.xml\n`
}
