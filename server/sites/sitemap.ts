/** `sitemap.xml` for one request host: every HTML page of the deployment as an absolute URL. */
import type { SiteManifest } from '../builds/site-manifest.js'

const escapeXml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char] ?? char,
  )

/** `guide/setup/index.html` → `guide/setup/`, `index.html` → ``; other files are not pages. */
export function pageUrlPath(path: string): string | undefined {
  if (path === 'index.html') return ''
  if (path.endsWith('/index.html')) return path.slice(0, -'index.html'.length)
  return undefined
}

export function renderSitemap(manifest: SiteManifest, base: string): string {
  const urls = Object.keys(manifest.files)
    .map(pageUrlPath)
    .filter((path): path is string => path !== undefined)
    .sort()
    .map((path) => `  <url><loc>${escapeXml(`${base}/${encodeURI(path)}`)}</loc></url>`)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}
