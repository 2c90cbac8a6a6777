/**
 * remark plugin: refuse, before parsing, an MDX document with more JSX tags than any real page. The MDX
 * parser keeps every token of a document in one array, so 100,000 `<i onclick>` hold a page thread past
 * its deadline and up to its heap limit, where one large allocation can abort the whole process instead
 * of ending the thread (nodejs/node#47224). Wraps the parser, so pages and snippets alike are checked.
 */
import type { Processor } from 'unified'
import { PageLimitError } from './remark-nesting-limit.js'

/** Opening, closing and fragment tags together; a long reference page stays in the low thousands. */
export const MAX_JSX_TAGS = 20_000

// `<` followed by a name, `/` or `>`: the start of an element, a closing tag or a fragment.
const tagStart = /<(?=[A-Za-z/>])/g

/** The line of the first tag past `limit`, if the document has more than `limit` tags. */
export function lineOfTagPastLimit(document: string, limit: number): number | undefined {
  let count = 0
  for (const match of document.matchAll(tagStart)) {
    if (++count > limit) return document.slice(0, match.index).split('\n').length
  }
  return undefined
}

export default function remarkJsxLimit(this: Processor): void {
  const parse = this.parser
  if (!parse) return
  this.parser = (document, file) => {
    const line = lineOfTagPastLimit(document, MAX_JSX_TAGS)
    if (line !== undefined) {
      throw new PageLimitError(
        `Unexpected more than ${MAX_JSX_TAGS} JSX tags on one page (the next on line ${line}), expected at most ${MAX_JSX_TAGS}; the page is not rendered`,
        { line, column: 1 },
      )
    }
    return parse(document, file)
  }
}
