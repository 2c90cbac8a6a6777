/** The `<head>`: title, meta, favicon, the hashed stylesheet and script, the no-flash colour mode, analytics. */

import escapeHtml from 'escape-html'
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
      (path) => `<link rel="stylesheet" href="${escapeHtml(siteHref(slug, path))}">`,
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
  if (typeof favicon === 'string') return `<link rel="icon" href="${escapeHtml(configAsset(slug, favicon))}">`
  return `<link rel="icon" href="${escapeHtml(configAsset(slug, favicon.light))}" media="(prefers-color-scheme: light)"><link rel="icon" href="${escapeHtml(configAsset(slug, favicon.dark))}" media="(prefers-color-scheme: dark)">`
}

/** JSON for inline scripts: `<` escaped so a value can never close the script element. */
const scriptJson = (value: string): string => JSON.stringify(value).replace(/</g, '\\u003c')

/**
 * Where PostHog's script is loaded from and where it sends events: its cloud serves the script from
 * `us-assets.i.posthog.com` beside the API at `us.i.posthog.com`; a self-hosted one from its own host.
 * The page's Content-Security-Policy allows exactly these.
 */
export function posthogOrigins(host: string): { api: string; assets: string } {
  const api = host.replace(/\/+$/, '')
  return { api, assets: api.replace('.i.posthog.com', '-assets.i.posthog.com') }
}

/** PostHog's loader, only when the project configured it: nothing third-party loads otherwise. */
export function renderAnalytics(analytics: AnalyticsSettings | undefined): string {
  const posthog = analytics?.posthog
  if (!posthog) return ''
  const { api: host, assets } = posthogOrigins(posthog.host)
  return `<script>(function(){var k=${scriptJson(posthog.key)},h=${scriptJson(host)};window.posthog=window.posthog||[];var s=document.createElement('script');s.async=true;s.src=${scriptJson(`${assets}/static/array.js`)};s.onload=function(){window.posthog&&window.posthog.init&&window.posthog.init(k,{api_host:h,person_profiles:'identified_only'})};document.head.appendChild(s)})()</script>`
}
