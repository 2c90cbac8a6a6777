/** The `<head>`: title, meta, favicon, the hashed stylesheet and script, the no-flash colour mode, analytics. */

import escapeHtml from 'escape-html'
import { versionQuery } from '../content/asset-version.js'
import type { AnalyticsSettings } from '../types.js'
import type { SiteContext } from './context.js'
import { diagramFiles } from './diagram-assets.js'
import { configAsset } from './header.js'
import { join } from './html.js'
import { mathFiles } from './math-assets.js'
import { siteHref } from './urls.js'

export interface HeadOptions {
  slug: string
  title: string
  description?: string
  keywords?: string[]
  /** Link KaTeX's stylesheet (compiler/theme/math-assets.ts): only pages with math load it. */
  math?: boolean
  /** Load mermaid and the script that draws the page's diagrams (compiler/theme/diagram-assets.ts). */
  mermaid?: boolean
  /** Link the site's Tailwind stylesheet (compiler/theme/tailwind.ts). */
  tailwind?: boolean
  noindex: boolean
  /** The page has an API "Try it" panel: load the script that builds it. */
  playground?: boolean
}

/**
 * Runs before first paint: applies the stored or system colour mode so a dark reader never sees a
 * light flash. `appearance.strict` locks the default mode and ignores any stored choice.
 */
const colourModeScript =
  "(function(){var d=document.documentElement,m=d.getAttribute('data-appearance')||'system';try{if(d.getAttribute('data-appearance-strict')!=='true'){var s=localStorage.getItem('docs-theme');if(s==='light'||s==='dark')m=s}}catch(e){}if(m==='system')m=window.matchMedia&&matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';d.setAttribute('data-theme',m)})()"

export function renderHead(site: SiteContext, options: HeadOptions): string {
  const { config } = site
  const { slug } = options
  const title = options.title === config.name ? config.name : `${options.title} - ${config.name}`
  const description = options.description ?? config.description
  const metatags = Object.entries(config.seo?.metatags ?? {})
    .filter(([name]) => name !== 'robots' || !options.noindex)
    .map(([name, content]) =>
      name.startsWith('og:')
        ? `<meta property="${escapeHtml(name)}" content="${escapeHtml(content)}">`
        : `<meta name="${escapeHtml(name)}" content="${escapeHtml(content)}">`,
    )
    .join('')
  return join(
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    description && `<meta name="description" content="${escapeHtml(description)}">`,
    options.keywords?.length
      ? `<meta name="keywords" content="${escapeHtml(options.keywords.join(', '))}">`
      : '',
    options.noindex && '<meta name="robots" content="noindex">',
    metatags,
    `<meta name="docs-root" content="${escapeHtml(siteHref(slug, ''))}">`,
    `<meta name="docs-search-index" content="${escapeHtml(siteHref(slug, site.assets.searchIndex))}">`,
    renderFavicon(site, slug),
    `<link rel="stylesheet" href="${escapeHtml(siteHref(slug, site.assets.css))}">`,
    options.math && `<link rel="stylesheet" href="${escapeHtml(siteHref(slug, mathFiles().cssPath))}">`,
    options.tailwind &&
      site.assets.tailwindCss &&
      `<link rel="stylesheet" href="${escapeHtml(siteHref(slug, site.assets.tailwindCss))}">`,
    ...(site.assets.stylesheets ?? []).map(
      (path) =>
        `<link rel="stylesheet" href="${escapeHtml(siteHref(slug, path) + versionQuery(site.assets.versions?.[path]))}">`,
    ),
    `<script>${colourModeScript}</script>`,
    `<script src="${escapeHtml(siteHref(slug, site.assets.js))}" defer></script>`,
    options.playground && `<script src="${escapeHtml(siteHref(slug, site.assets.apiJs))}" defer></script>`,
    options.mermaid &&
      `<script src="${escapeHtml(siteHref(slug, diagramFiles().mermaidPath))}" defer></script><script src="${escapeHtml(siteHref(slug, diagramFiles().scriptPath))}" defer></script>`,
    renderAnalytics(site.analytics),
    '</head>',
  )
}

function renderFavicon(site: SiteContext, slug: string): string {
  const favicon = site.config.favicon
  if (!favicon) return ''
  if (typeof favicon === 'string')
    return `<link rel="icon" href="${escapeHtml(configAsset(slug, favicon, site.assets.versions))}">`
  return `<link rel="icon" href="${escapeHtml(configAsset(slug, favicon.light, site.assets.versions))}" media="(prefers-color-scheme: light)"><link rel="icon" href="${escapeHtml(configAsset(slug, favicon.dark, site.assets.versions))}" media="(prefers-color-scheme: dark)">`
}

/** JSON for inline scripts: `<` escaped so a value can never close the script element. */
const scriptJson = (value: string): string => JSON.stringify(value).replace(/</g, '\\u003c')

/** localhost and 127.0.0.0/8: where plain http cannot be read or changed by anyone in between. */
const isLoopbackName = (hostname: string): boolean =>
  hostname === 'localhost' || /^127(\.\d{1,3}){3}$/.test(hostname)

/**
 * The origin (`https://host[:port]`) of a PostHog host setting, rebuilt from its parsed parts, or what is
 * wrong with it. Only https, or http on loopback; no credentials, path, query or fragment; a host name
 * of letters, digits, `-` and `.` only, so the origin can go into a Content-Security-Policy source list
 * and a script as it is (URL parsing alone lets `;` and `'` through in a host name).
 */
export function posthogOrigin(host: string): { origin: string } | { problem: string } {
  let url: URL
  try {
    url = new URL(host)
  } catch {
    return { problem: 'not a URL' }
  }
  const loopback = isLoopbackName(url.hostname)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    return { problem: 'must be an https:// URL (http:// only on localhost or 127.0.0.1)' }
  if (url.username || url.password || url.search || url.hash || host.includes('?') || host.includes('#'))
    return { problem: 'must have no credentials, query or fragment' }
  if (url.pathname !== '/')
    return { problem: `must be an origin without a path, like ${url.protocol}//${url.host}` }
  const labels = url.hostname.split('.')
  if (labels.some((label) => !/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label)))
    return {
      problem: 'the host name may hold only letters, digits, "-" and "." (an IPv6 address is not allowed)',
    }
  return { origin: `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}` }
}

/**
 * Where PostHog's script is loaded from and where it sends events: its cloud serves the script from
 * `us-assets.i.posthog.com` beside the API at `us.i.posthog.com`; a self-hosted one from its own host.
 * The page's Content-Security-Policy allows exactly these. `undefined` for a host that is no valid
 * origin (one stored before the API checked): then no analytics at all rather than a broken policy.
 */
export function posthogOrigins(host: string): { api: string; assets: string } | undefined {
  const parsed = posthogOrigin(host)
  if (!('origin' in parsed)) return undefined
  const api = parsed.origin
  return { api, assets: api.replace(/\.i\.posthog\.com$/, '-assets.i.posthog.com') }
}

/** PostHog's loader, only when the project configured it: nothing third-party loads otherwise. */
export function renderAnalytics(analytics: AnalyticsSettings | undefined): string {
  const posthog = analytics?.posthog
  const origins = posthog && posthogOrigins(posthog.host)
  if (!posthog || !origins) return ''
  const { api: host, assets } = origins
  return `<script>(function(){var k=${scriptJson(posthog.key)},h=${scriptJson(host)};window.posthog=window.posthog||[];var s=document.createElement('script');s.async=true;s.src=${scriptJson(`${assets}/static/array.js`)};s.onload=function(){window.posthog&&window.posthog.init&&window.posthog.init(k,{api_host:h,person_profiles:'identified_only'})};document.head.appendChild(s)})()</script>`
}
