/**
 * The static search index: one script, `_search/index.js`, that the shell loads on first search
 * (a script rather than JSON so search also works from `file://`). search-rank.ts ranks it, in the
 * browser and in the site's MCP server alike (`npm run bench:search` measures its quality).
 * Chosen over Pagefind after measuring both on the 1,000-page bench corpus: Pagefind's index was
 * deterministic but took 4–5 s (its own native process) next to a 6 s cold build and wrote 1,035
 * files; this index takes milliseconds and is one ~1 MB file. Page text is capped so large sites
 * stay small.
 */
import type { SearchIndex } from './search-rank.js'

export const SEARCH_INDEX_PATH = '_search/index.js'

/** The script is this assignment around the index's JSON. */
const SCRIPT_START = 'window.__docsSearchIndex='

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

/** At most `limit` characters, ending after a whole word: an excerpt never ends in half a word. */
export function capAtWord(text: string, limit: number): string {
  if (text.length <= limit) return text
  const space = text.lastIndexOf(' ', limit)
  return text.slice(0, space > 0 ? space : limit)
}

/** One page's record in the index, as JSON: built once per page and reused while the page is unchanged. */
export function searchRecord(entry: SearchEntry): string {
  const record: Record<string, unknown> = { u: entry.url, t: entry.title }
  if (entry.section) record.s = entry.section
  if (entry.description) record.d = entry.description
  record.h = entry.headings
  if (entry.keywords?.length) record.k = entry.keywords.join(' ')
  record.x = capAtWord(entry.text.replace(/\s+/g, ' ').trim(), TEXT_LIMIT)
  return JSON.stringify(record).replace(/</g, '\\u003c')
}

export function renderSearchIndex(entries: readonly SearchEntry[], synonyms?: unknown): Uint8Array {
  return renderSearchIndexOf(entries.map(searchRecord), synonyms)
}

/**
 * docs.json `search.synonyms` as the index keeps them: lowercase, string lists only (a lenient build
 * may hold anything there), keys sorted so the index stays byte-for-byte the same.
 */
export function searchSynonyms(value: unknown): Record<string, string[]> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const synonyms: Record<string, string[]> = {}
  for (const key of Object.keys(value).sort()) {
    const list = (value as Record<string, unknown>)[key]
    if (!Array.isArray(list) || !key.trim()) continue
    const words = list.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    if (words.length) synonyms[key.trim().toLowerCase()] = words.map((word) => word.trim().toLowerCase())
  }
  return Object.keys(synonyms).length ? synonyms : undefined
}

/** The index script from the pages' records (`searchRecord`), in site order, and docs.json synonyms. */
export function renderSearchIndexOf(records: readonly string[], synonyms?: unknown): Uint8Array {
  const kept = searchSynonyms(synonyms)
  const extra = kept ? `,"synonyms":${JSON.stringify(kept).replace(/</g, '\\u003c')}` : ''
  return new TextEncoder().encode(`${SCRIPT_START}{"pages":[${records.join(',')}]${extra}};\n`)
}

/** The index a `_search/index.js` holds (what the browser gets by running it), for the MCP server. */
export function parseSearchIndex(script: string): SearchIndex {
  const start = script.indexOf(SCRIPT_START)
  const end = script.lastIndexOf(';')
  if (start !== 0 || end === -1) return { pages: [] }
  const parsed = JSON.parse(script.slice(SCRIPT_START.length, end)) as Partial<SearchIndex>
  const synonyms = searchSynonyms(parsed.synonyms)
  return { pages: Array.isArray(parsed.pages) ? parsed.pages : [], ...(synonyms ? { synonyms } : {}) }
}
