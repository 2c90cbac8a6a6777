/**
 * remark plugin: refuse, before parsing, a document whose containers nest deeper than any real page.
 * The Markdown parser is quadratic in nesting depth (`"> "` or `"- "` 100,000 times on one line holds a
 * thread for minutes), so the check wraps the parser itself and runs for pages and snippets alike.
 */
import type { Processor } from 'unified'
import type { Place } from './context.js'

/** Block quotes and list items inside each other on one line; real pages stay under ten. */
export const MAX_NESTING_DEPTH = 100

/** A page or snippet beyond a build limit: reported as an error on the page, never retried. */
export class PageLimitError extends Error {
  constructor(
    message: string,
    readonly place?: Place,
  ) {
    super(message)
    this.name = 'PageLimitError'
  }
}

// One container marker at the start of what is left of a line: `>`, `-`, `*`, `+`, `1.` or `1)`.
const containerMarker = /^[ \t]{0,3}(?:>|[-*+]|\d{1,9}[.)])(?=[ \t]|$)[ \t]?/

/** The first line whose container markers nest deeper than `limit`, with its depth. */
export function deepestNesting(text: string, limit: number): { line: number; depth: number } | undefined {
  let line = 1
  for (let start = 0; start <= text.length; line++) {
    const end = text.indexOf('\n', start)
    const stop = end === -1 ? text.length : end
    let depth = 0
    let rest = text.slice(start, Math.min(stop, start + 8 * (limit + 1)))
    for (let match = containerMarker.exec(rest); match; match = containerMarker.exec(rest)) {
      depth++
      if (depth > limit) return { line, depth }
      rest = rest.slice(match[0].length || 1)
    }
    if (end === -1) break
    start = end + 1
  }
  return undefined
}

export default function remarkNestingLimit(this: Processor): void {
  const parse = this.parser
  if (!parse) return
  this.parser = (document, file) => {
    const deep = deepestNesting(document, MAX_NESTING_DEPTH)
    if (deep) {
      throw new PageLimitError(
        `Unexpected more than ${MAX_NESTING_DEPTH} nested block quotes or list items on line ${deep.line}, expected at most ${MAX_NESTING_DEPTH}; the page is not rendered`,
        { line: deep.line, column: 1 },
      )
    }
    return parse(document, file)
  }
}
