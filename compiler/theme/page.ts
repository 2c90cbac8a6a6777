/**
 * The page shell: wraps one rendered page body in the header, sidebar, table of contents,
 * pagination and footer. A pure function of (site, page), so unchanged pages keep identical bytes.
 */

import escapeHtml from 'escape-html'
import { renderBanner } from './banner.js'
import type { ShellPage, SiteContext } from './context.js'
import { renderContextual } from './contextual.js'
import { feedbackForm } from './feedback.js'
import { renderFooter } from './footer.js'
import { renderHead } from './head.js'
import { renderHeader } from './header.js'
import { join } from './html.js'
import { renderPagination } from './pagination.js'
import { searchDialog } from './search-dialog.js'
import { renderSidebar } from './sidebar.js'
import { renderToc } from './toc.js'
import { ROOT_FILE_SLUG } from './urls.js'

type PageMode = 'default' | 'wide' | 'custom' | 'frame' | 'center'
const modes = new Set<PageMode>(['default', 'wide', 'custom', 'frame', 'center'])

export function renderShell(site: SiteContext, page: ShellPage): string {
  const { config } = site
  const front = page.frontMatter
  const location = site.locations.get(page.slug)
  const tabIndex = location?.tab ?? 0
  const mode: PageMode = modes.has(front.mode as PageMode) ? (front.mode as PageMode) : 'default'
  const tab = site.navigation.tabs[tabIndex]
  const hasSidebar = mode !== 'custom' && mode !== 'center' && Boolean(tab && !tab.href && tab.items.length)
  const hasToc = mode === 'default'
  const indexing = config.seo?.indexing ?? 'navigable'
  const noindex = front.noindex === true || (indexing === 'navigable' && (!location || location.hidden))
  const contextualHtml =
    mode === 'custom' || page.slug === ROOT_FILE_SLUG ? '' : renderContextual(config, page.slug)
  const contextualInToc = config.contextual?.display === 'toc' && hasToc
  const keywords = Array.isArray(front.keywords)
    ? front.keywords.filter((word): word is string => typeof word === 'string')
    : undefined

  const group = location?.groups.at(-1)
  const badges = join(
    typeof front.tag === 'string' && `<span class="d-badge d-badge-tag">${escapeHtml(front.tag)}</span>`,
    front.deprecated === true && '<span class="d-badge d-badge-deprecated">Deprecated</span>',
  )
  const pageHeader =
    mode === 'custom'
      ? ''
      : join(
          '<header class="d-page-header">',
          group && `<p class="d-eyebrow">${escapeHtml(group)}</p>`,
          `<div class="d-title-row"><h1 class="d-title">${escapeHtml(page.title)}</h1>${badges}</div>`,
          page.description && `<p class="d-description">${escapeHtml(page.description)}</p>`,
          !contextualInToc && contextualHtml,
          '</header>',
        )
  const pagination =
    front.hideFooterPagination === true || mode === 'custom' ? '' : renderPagination(site, page.slug)
  // The 404 page is marked, so the script reports the missing path; other pages ask for feedback
  // unless docs.json turns the question off.
  const notFound = page.slug === ROOT_FILE_SLUG
  const feedback =
    notFound || mode === 'custom' || config.feedback?.thumbsRating === false ? '' : feedbackForm
  const article = `<article class="d-article"${notFound ? ' data-not-found' : ''}>${pageHeader}<div class="d-prose">${page.html}</div>${feedback}${pagination}</article>`
  const toc = hasToc ? renderToc(page, contextualInToc ? contextualHtml : '') : ''
  const sidebar = hasSidebar
    ? `<aside class="d-sidebar" id="d-sidebar"><button type="button" class="d-icon-button d-sidebar-close" data-nav-close aria-label="Close navigation"><svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18"><path d="M6 6l12 12M18 6 6 18" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg></button>${renderSidebar(site, page.slug, tabIndex)}</aside><div class="d-sidebar-backdrop" data-nav-close></div>`
    : ''
  const appearance = config.appearance?.default ?? 'system'
  const presetTheme = appearance === 'system' ? '' : ` data-theme="${appearance}"`
  const strict = config.appearance?.strict === true ? ' data-appearance-strict="true"' : ''
  const head = renderHead(site, {
    slug: page.slug,
    title: page.title,
    ...(page.description ? { description: page.description } : {}),
    ...(keywords ? { keywords } : {}),
    noindex,
    ...(page.html.includes('class="d-try-it"') ? { playground: true } : {}),
    ...(page.math ? { math: true } : {}),
    ...(page.mermaid ? { mermaid: true } : {}),
    ...(page.tailwind ? { tailwind: true } : {}),
  })
  // Plain concatenation, not join(): V8 keeps it a rope until the build encodes it, saving a copy of
  // every page (the sidebar of a large site is most of its bytes).
  const tocAside = toc ? `<aside class="d-toc" aria-label="Table of contents">${toc}</aside>` : ''
  return (
    `<!doctype html><html lang="en" data-appearance="${appearance}"${strict}${presetTheme}>${head}` +
    `<body class="d-mode-${mode}${hasSidebar ? ' d-has-sidebar' : ''}${toc ? ' d-has-toc' : ''}">` +
    '<a class="d-skip-link" href="#d-content">Skip to content</a>' +
    renderBanner(site, page.slug) +
    renderHeader(site, page.slug, tabIndex, hasSidebar) +
    '<div class="d-layout">' +
    sidebar +
    `<main id="d-content" class="d-main">${article}${renderFooter(site, page.slug)}</main>${tocAside}</div>` +
    searchDialog +
    '</body></html>\n'
  )
}
