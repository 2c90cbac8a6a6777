/** Previous / next links at the foot of a page, within its tab. */

import escapeHtml from 'escape-html'
import type { SiteContext } from './context.js'
import { pageHref } from './urls.js'

export function renderPagination(site: SiteContext, slug: string): string {
  const around = site.neighbours.get(slug)
  if (!around || (!around.previous && !around.next)) return ''
  const link = (direction: 'previous' | 'next', target: string) => {
    const summary = site.pages.get(target)
    const label = summary?.sidebarTitle ?? summary?.title ?? target
    return `<a class="d-pagination-${direction}" href="${escapeHtml(pageHref(slug, target))}" rel="${direction === 'previous' ? 'prev' : 'next'}"><span class="d-pagination-hint">${direction === 'previous' ? 'Previous' : 'Next'}</span><span class="d-pagination-title">${escapeHtml(label)}</span></a>`
  }
  return `<nav class="d-pagination" aria-label="Pagination">${around.previous ? link('previous', around.previous.slug) : '<span></span>'}${around.next ? link('next', around.next.slug) : ''}</nav>`
}
