/**
 * The info string after a fence's language: ```ts title="app.ts" {1,3-5}```. A bare first word that
 * is not an option is a title too (```js app.js```), as the hosted platform we stay compatible with reads it.
 * A brace group is one token whatever spaces it holds (`{1, 3-5}`, `focus={16, 17, 21}`): only the words
 * left over make the title.
 */
export interface CodeMeta {
  title?: string
  /** 1-based line numbers to highlight. */
  highlight: number[]
}

const OPTION = /\{([^}]*)\}?|([A-Za-z][\w-]*)=(?:"([^"]*)"|'([^']*)'|\{([^}]*)\}?|(\S+))|"([^"]*)"|(\S+)/g

/** Options whose lines are shown highlighted: `focus` (which dims the rest on the platform) is the closest we have. */
const LINE_OPTIONS = new Set(['highlight', 'lines', 'focus'])

export function parseCodeMeta(meta: string | null | undefined): CodeMeta {
  const result: CodeMeta = { highlight: [] }
  if (!meta) return result
  const bareWords: string[] = []
  for (const match of meta.matchAll(OPTION)) {
    const [, ranges, name, doubleQuoted, singleQuoted, braced, bare, quotedWord, word] = match
    if (ranges !== undefined) {
      if (/^[\d,\s-]*$/.test(ranges)) result.highlight.push(...parseRanges(ranges))
    } else if (name !== undefined) {
      const value = doubleQuoted ?? singleQuoted ?? braced ?? bare ?? ''
      if (name === 'title' || name === 'filename') result.title = value
      else if (LINE_OPTIONS.has(name)) result.highlight.push(...parseRanges(value.replace(/[{}]/g, '')))
    } else {
      bareWords.push(quotedWord ?? word ?? '')
    }
  }
  // Flags such as `lines`, `wrap` or `expandable` are not titles; anything else written first is.
  const flags = new Set(['lines', 'wrap', 'expandable', 'twoslash', 'showLineNumbers', 'copy', 'nocopy'])
  const titleWords = bareWords.filter((word) => word && !flags.has(word))
  if (result.title === undefined && titleWords.length > 0) result.title = titleWords.join(' ')
  result.highlight = [...new Set(result.highlight)].sort((a, b) => a - b)
  return result
}

function parseRanges(text: string): number[] {
  const lines: number[] = []
  for (const part of text.split(',')) {
    const [from, to] = part
      .trim()
      .split('-')
      .map((value) => Number.parseInt(value, 10))
    if (from === undefined || Number.isNaN(from)) continue
    const end = to === undefined || Number.isNaN(to) ? from : to
    // A range beyond any real code block is an author slip; cap it so it cannot allocate without end.
    for (let line = from; line <= Math.min(end, from + 10_000); line++) lines.push(line)
  }
  return lines.filter((line) => line > 0)
}
