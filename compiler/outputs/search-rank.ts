/**
 * Search ranking and result text, pure functions over the static index: the page script ranks with
 * them in the browser and each site's MCP server (serving/mcp.ts) with the same code.
 */

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
  /** docs.json `search.synonyms`: a word → the words or phrases searched with it (and it with them). */
  synonyms?: Record<string, string[]>
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

/**
 * Escaped `text` with each search word of two or more letters wrapped in `<mark>`, to the end of the
 * word it starts (a stem like "memor" marks all of "memory").
 */
export function highlight(text: string, words: readonly string[]): string {
  const html = escapeHtml(text)
  const patterns = words
    .filter((word) => word.length >= 2)
    .sort((a, b) => b.length - a.length)
    .map((word) => `${escapeHtml(word).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\p{L}\\p{N}]*`)
  // One pass with every word, so a word is never searched for inside an earlier word's <mark>.
  return patterns.length
    ? html.replace(new RegExp(`(${patterns.join('|')})`, 'giu'), '<mark>$1</mark>')
    : html
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

/** Words that carry no meaning in a question ("how do I add memory"), left out when others remain. */
const STOP_WORDS = new Set(
  'a an and are as at be by can do does for from how i in is it my of on or the to use using what when where which with you your'.split(
    ' ',
  ),
)

/**
 * The part of a word its other forms share, matched as a substring: "memories" and "memory" both
 * hold "memor", "embeddings" and "embedder" hold "embedd". Words of three letters or fewer (llm, vad,
 * tts) stay as they are.
 */
export function stem(word: string): string {
  if (word.length <= 3) return word
  const stripped = word.replace(/(ies|es|s)$/, '').replace(/(ing|ed|e|y)$/, '')
  return stripped.length >= 3 ? stripped : word
}

/** The words of a query worth looking for, as stems; stop words go unless nothing else is left. */
export function queryWords(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}_.]+/u)
    .map((word) => word.replace(/^\.+|\.+$/g, ''))
    .filter(Boolean)
  const meaningful = words.filter((word) => !STOP_WORDS.has(word))
  return [...new Set((meaningful.length ? meaningful : words).map(stem))]
}

/** A page's fields lowercased once, kept beside the index so each keystroke only compares. */
interface PreparedPage {
  title: string
  titleWords: string[]
  url: string
  section: string
  description: string
  headings: string
  keywords: string
  body: string
}

const prepared = new WeakMap<IndexedPage, PreparedPage>()

function prepare(page: IndexedPage): PreparedPage {
  let fields = prepared.get(page)
  if (!fields) {
    const title = page.t.toLowerCase()
    fields = {
      title,
      titleWords: title.split(/[^\p{L}\p{N}]+/u).filter(Boolean),
      url: page.u.toLowerCase(),
      section: (page.s ?? '').toLowerCase(),
      description: (page.d ?? '').toLowerCase(),
      headings: page.h.join(' ').toLowerCase(),
      keywords: (page.k ?? '').toLowerCase(),
      body: page.x.toLowerCase(),
    }
    prepared.set(page, fields)
  }
  return fields
}

/** How much one query word found in a page counts, by where it was found; 0 when nowhere. */
function wordScore(fields: PreparedPage, word: string): number {
  const inTitle = fields.title.includes(word)
  const score =
    (inTitle ? 10 : 0) +
    (inTitle && fields.titleWords.some((titleWord) => titleWord.startsWith(word)) ? 5 : 0) +
    (fields.url.includes(word) ? 6 : 0) +
    (fields.keywords.includes(word) ? 6 : 0) +
    (fields.headings.includes(word) ? 4 : 0) +
    (fields.description.includes(word) ? 3 : 0) +
    (fields.section.includes(word) ? 3 : 0)
  return score + (fields.body.includes(word) ? 1 : 0)
}

/** A query word's forms to look for: the word, then each synonym (a phrase is several words, all needed). */
type Alternatives = string[][]

const synonymTables = new WeakMap<Record<string, string[]>, Map<string, Alternatives>>()

/** docs.json synonyms as stems, both ways (a phrase is found from its key, its key from a one-word value). */
function synonymTable(synonyms: Record<string, string[]>): Map<string, Alternatives> {
  let table = synonymTables.get(synonyms)
  if (table) return table
  const built = new Map<string, Alternatives>()
  const add = (word: string, alternative: string[]) => {
    const list = built.get(word) ?? []
    if (!list.some((known) => known.join(' ') === alternative.join(' '))) list.push(alternative)
    built.set(word, list)
  }
  for (const [key, values] of Object.entries(synonyms)) {
    if (!Array.isArray(values)) continue
    const keyStem = stem(key.toLowerCase())
    for (const value of values) {
      if (typeof value !== 'string') continue
      const words = queryWords(value)
      if (!words.length || (words.length === 1 && words[0] === keyStem)) continue
      add(keyStem, words)
      if (words.length === 1 && words[0]) add(words[0], [keyStem])
    }
  }
  table = built
  synonymTables.set(synonyms, table)
  return table
}

/** The forms of each query word to look for, the word itself first. */
function alternativesOf(index: SearchIndex, words: readonly string[]): Alternatives[] {
  const table = index.synonyms ? synonymTable(index.synonyms) : undefined
  return words.map((word) => [[word], ...(table?.get(word) ?? [])])
}

/** The best score of a word's forms in a page: a form counts when all its words are found. */
function termScore(fields: PreparedPage, alternatives: Alternatives): number {
  let best = 0
  for (const form of alternatives) {
    let score = 0
    for (const word of form) {
      const found = wordScore(fields, word)
      if (found === 0) {
        score = 0
        break
      }
      score += found
    }
    best = Math.max(best, score)
  }
  return best
}

/**
 * The 20 best pages for `query`, ranked the same in the browser and by the site's MCP server. Pages
 * holding every word come first (when none holds them all, those holding the most); among them, a
 * word counts most in the title, then the URL and keywords, headings, description and section, body.
 * A title made mostly of the query's words ("Graph Memory" for "graph memory") gains up to 8.
 * A word with synonyms (docs.json `search.synonyms`) is found by any of them.
 */
export function search(index: SearchIndex, query: string): SearchHit[] {
  const words = queryWords(query)
  if (!words.length) return []
  const terms = alternativesOf(index, words)
  // Highlighted too: a page found by a synonym shows where.
  const shown = [...new Set(terms.flat(2))]
  // Every word first, leaving a page at its first missing word (the common, fast case).
  let scored = scorePages(index, words, terms, words.length)
  if (!scored.length && words.length > 1) {
    scored = scorePages(index, words, terms, 1)
    const best = scored.reduce((most, hit) => Math.max(most, hit.matched), 0)
    scored = scored.filter((hit) => hit.matched === best)
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, 20)
    .map(({ page, score }) => ({ page, score, words: shown }))
}

/** Pages holding at least `needed` of `words`, scored, with how many they hold. */
function scorePages(
  index: SearchIndex,
  words: readonly string[],
  terms: readonly Alternatives[],
  needed: number,
) {
  const scored: { page: IndexedPage; score: number; matched: number }[] = []
  for (const page of index.pages) {
    const fields = prepare(page)
    let score = 0
    let matched = 0
    let missing = 0
    for (const alternatives of terms) {
      const found = termScore(fields, alternatives)
      if (found > 0) matched += 1
      else if (++missing > words.length - needed) break
      score += found
    }
    if (matched < needed) continue
    const titleWords = fields.titleWords
    if (titleWords.length) {
      const covered = titleWords.filter((titleWord) =>
        words.some((word) => titleWord.startsWith(word)),
      ).length
      score += (8 * covered) / titleWords.length
    }
    scored.push({ page, score, matched })
  }
  return scored
}
