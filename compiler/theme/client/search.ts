/** Search: a static index (`_search/index.js`) loaded on first use, ranked in the browser. */

import {
  escapeHtml,
  excerpt,
  highlight,
  type SearchIndex,
  search,
  summaryFor,
} from '../../outputs/search-rank.js'
import { sendInsight, sitePathOf } from './insights.js'
import { meta, siteRoot } from './page.js'

declare global {
  interface Window {
    __docsSearchIndex?: SearchIndex
  }
}

export function setUpSearch(): void {
  const dialog = document.querySelector<HTMLDialogElement>('.d-search-dialog')
  const input = dialog?.querySelector('input')
  const results = dialog?.querySelector('.d-search-results')
  const status = dialog?.querySelector('.d-search-status')
  if (!dialog || !input || !results || !status) return
  const root = siteRoot()
  let index: SearchIndex | undefined
  let loading: Promise<SearchIndex> | undefined
  let selected = 0
  /** The query shown last and its result count, reported once when a result is opened or the dialog closes. */
  let shown: { query: string; results: number } | undefined

  const report = (opened: string | null): void => {
    if (!shown) return
    // Control characters (a pasted tab) as spaces: the server refuses an event that holds one.
    const query = shown.query.replace(/\p{Cc}/gu, ' ').slice(0, 100)
    sendInsight({ type: 'search', query, results: shown.results, opened })
    shown = undefined
  }

  // A script, not fetch(): the index is a script so that search also works from file://.
  const loadIndex = (): Promise<SearchIndex> => {
    loading ??= new Promise((resolve, reject) => {
      const script = document.createElement('script')
      script.src = meta('docs-search-index')
      script.onload = () => {
        index = window.__docsSearchIndex ?? { pages: [] }
        resolve(index)
      }
      script.onerror = () => reject(new Error('search index unavailable'))
      document.head.append(script)
    })
    return loading
  }

  const render = (): void => {
    if (!index) return
    const hits = search(index, input.value)
    selected = 0
    results.innerHTML = hits
      .map(({ page, words }, i) => {
        const href = new URL(page.u, root).href
        const section = page.s ? `<span class="d-search-result-section">${escapeHtml(page.s)}</span>` : ''
        return `<li role="none"><a role="option" id="d-search-hit-${i}" href="${escapeHtml(href)}" aria-selected="${i === 0}"><span class="d-search-result-title">${highlight(page.t, words)}</span>${section}<span class="d-search-result-excerpt">${highlight(excerpt(summaryFor(page, words), words), words)}</span></a></li>`
      })
      .join('')
    const query = input.value.trim()
    shown = query ? { query, results: hits.length } : undefined
    status.textContent = query
      ? hits.length
        ? `${hits.length} result${hits.length === 1 ? '' : 's'}`
        : `No results for “${query}”`
      : ''
  }

  const open = (): void => {
    if (!dialog.open) dialog.showModal()
    input.select()
    loadIndex().then(render, () => {
      status.textContent = 'Search is unavailable.'
    })
  }

  for (const button of document.querySelectorAll('[data-search-open]')) button.addEventListener('click', open)
  document.addEventListener('keydown', (event) => {
    const target = event.target
    const typing =
      target instanceof HTMLElement &&
      (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable)
    if ((event.key === 'k' && (event.metaKey || event.ctrlKey)) || (event.key === '/' && !typing)) {
      event.preventDefault()
      open()
    }
  })
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close()
  })
  dialog.addEventListener('close', () => report(null))
  results.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a') : null
    if (link) report(sitePathOf(new URL(link.href)) ?? null)
  })
  input.addEventListener('input', render)
  input.addEventListener('keydown', (event) => {
    const links = [...results.querySelectorAll('a')]
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!links.length) return
      selected = (selected + (event.key === 'ArrowDown' ? 1 : -1) + links.length) % links.length
      links.forEach((link, i) => {
        link.setAttribute('aria-selected', String(i === selected))
      })
      links[selected]?.scrollIntoView({ block: 'nearest' })
      return
    }
    const chosen = links[selected]
    if (event.key === 'Enter' && chosen) {
      event.preventDefault()
      report(sitePathOf(new URL(chosen.href)) ?? null)
      location.href = chosen.href
    }
  })
}
