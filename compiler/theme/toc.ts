/** "On this page": the h2/h3 headings of the page, as in-page links. */

import escapeHtml from 'escape-html'
import type { ShellPage } from './context.js'

export function renderToc(page: ShellPage, contextual: string): string {
  if (page.toc.length === 0 && !contextual) return ''
  const items = page.toc
    .map(
      (entry) =>
        `<li class="d-toc-depth-${entry.depth}"><a href="#${escapeHtml(entry.id)}">${escapeHtml(entry.text)}</a></li>`,
    )
    .join('')
  const list = page.toc.length
    ? `<p class="d-toc-title" id="d-toc-title">On this page</p><ul>${items}</ul>`
    : ''
  return `<nav class="d-toc-nav" aria-labelledby="d-toc-title">${list}${contextual}</nav>`
}
