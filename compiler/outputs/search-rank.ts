/** Search ranking and result text, pure functions over the static index. */

/** One page in `_search/index.js` (written by compiler/outputs/search-index.ts); short keys keep it small. */
export interface IndexedPage {
  /** Site path, relative to the site root. */
  u: string
  /** Title. */
  t: string
  /** Section (the navigation group). */
  s?: string
  /** Description. */
  d?: string
  /** Headings. */
  h: string[]
  /** Keywords, space-separated. */
  k?: string
  /** Body text, capped. */
  x: string
}

export interface SearchIndex {
  pages: IndexedPage[]
}

export interface SearchHit {
  page: IndexedPage
  score: number
  words: string[]
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char)

/** Escaped `text` with each search word of two or more letters wrapped in `<mark>`. */
export function highlight(text: string, words: readonly string[]): string {
  let html = escapeHtml(text)
  for (const word of words) {
    if (word.length < 2) continue
    html = html.replace(
      new RegExp(`(${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`, 'gi'),
      '<mark>$1</mark>',
    )
  }
  return html
}

/**
 * About 180 characters of `text` starting a little before the first search word, beginning and
 * ending between words so a snippet never shows half a word.
 */
export function excerpt(text: string, words: readonly string[]): string {
  const lower = text.toLowerCase()
  const at = Math.max(
    0,
    ...words
      .map((word) => lower.indexOf(word))
      .filter((i) => i >= 0)
      .slice(0, 1),
  )
  let start = Math.max(0, at - 60)
  if (start > 0 && /\S/.test(text[start - 1] ?? '')) {
    const space = text.indexOf(' ', start)
    start = space !== -1 && space < at ? space + 1 : text.lastIndexOf(' ', at) + 1
  }
  let end = start + 180
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end)
    if (space > at) end = space
  }
  return (start > 0 ? '…' : '') + text.slice(start, end).trim() + (end < text.length ? '…' : '')
}

/** The description when it mentions a search word; otherwise the body text around the first match. */
export const summaryFor = (page: IndexedPage, words: readonly string[]): string =>
  page.d && words.some((word) => page.d?.toLowerCase().includes(word)) ? page.d : page.x || page.d || ''

/** The 20 best pages holding every word of `query`: title matches first, then keywords, headings, body. */
export function search(index: SearchIndex, query: string): SearchHit[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (!words.length) return []
  const scored: SearchHit[] = []
  for (const page of index.pages) {
    const title = page.t.toLowerCase()
    const headings = page.h.join(' ').toLowerCase()
    const body = page.x.toLowerCase()
    const keywords = (page.k ?? '').toLowerCase()
    let score = 0
    let all = true
    for (const word of words) {
      const inTitle = title.includes(word)
      const inHeadings = headings.includes(word)
      const inKeywords = keywords.includes(word)
      const inBody = body.includes(word)
      if (!inTitle && !inHeadings && !inBody && !inKeywords) {
        all = false
        break
      }
      score +=
        (inTitle ? 10 : 0) +
        (title.startsWith(word) ? 5 : 0) +
        (inKeywords ? 6 : 0) +
        (inHeadings ? 4 : 0) +
        (inBody ? 1 : 0)
    }
    if (all) scored.push({ page, score, words })
  }
  return scored.sort((a, b) => b.score - a.score).slice(0, 20)
}
