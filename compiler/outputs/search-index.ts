/**
 * The static search index: one script, `_search/index.js`, that the shell loads on first search
 * (a script rather than JSON so search also works from `file://`). Ranking happens in the browser.
 * Chosen over Pagefind for byte-identical output and no per-build WebAssembly start-up; page text is
 * capped so a 1,000-page site stays a few megabytes.
 */
export const SEARCH_INDEX_PATH = '_search/index.js'

/** Characters of body text kept per page: enough for excerpts and most terms, bounded for large sites. */
const TEXT_LIMIT = 3000

export interface SearchEntry {
  /** Site path of the page (`guide/setup/`, `` for the root page). */
  url: string
  title: string
  section?: string
  description?: string
  headings: string[]
  keywords?: string[]
  text: string
}

export function renderSearchIndex(entries: readonly SearchEntry[]): Uint8Array {
  const pages = entries.map((entry) => {
    const record: Record<string, unknown> = { u: entry.url, t: entry.title }
    if (entry.section) record.s = entry.section
    if (entry.description) record.d = entry.description
    record.h = entry.headings
    if (entry.keywords?.length) record.k = entry.keywords.join(' ')
    record.x = entry.text.replace(/\s+/g, ' ').trim().slice(0, TEXT_LIMIT)
    return record
  })
  const json = JSON.stringify({ pages }).replace(/</g, '\\u003c')
  return new TextEncoder().encode(`window.__docsSearchIndex=${json};\n`)
}
