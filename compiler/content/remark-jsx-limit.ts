/**
 * remark plugin: refuse, before parsing, MDX the parser and the stages after it cannot handle safely.
 * Elements nested thousands deep overflow the stack of the parser and of every tree walk after it, so
 * nesting is limited, not length. And one parse holds every token of its text at once (long pages are
 * parsed in groups of blocks, long-page.ts), so a text that would take one parse past a thread's
 * heap, where V8 can abort the whole process (nodejs/node#47224), is refused. Wraps the parser, so
 * pages, groups of blocks and snippets alike are checked.
 */
import type { Processor } from 'unified'
import { outlineJsx } from './jsx-outline.js'
import { PageLimitError } from './remark-nesting-limit.js'

/**
 * The most bytes one parse may hold: a single block (one paragraph, one table, one element with
 * everything inside it) past this is refused. The parser's peak heap is about 600 bytes per byte of
 * MDX (30,000 `<Card>` tags in one parse took 1.5 GB), so this keeps one parse near 150 MB, under
 * the 256 MB thread heap of a command-line build.
 */
export const MAX_BLOCK_BYTES = 256 * 1024

/** The message for a block of `bytes` past `MAX_BLOCK_BYTES`, from `line` when known. */
export function blockTooLarge(bytes: number, line?: number): PageLimitError {
  const where = line === undefined ? '' : ` from line ${line}`
  return new PageLimitError(
    `Unexpected block of ${bytes} bytes${where}, expected at most ${MAX_BLOCK_BYTES} bytes in one block (a paragraph, a table, or an element with everything inside it); split it with blank lines between top-level elements, the page is not rendered`,
    line === undefined ? undefined : { line, column: 1 },
  )
}

/** Elements inside elements; real pages stay under twenty (a field in an expandable in a tab…). */
export const MAX_JSX_NESTING = 200

/** The error for a document whose elements nest past `MAX_JSX_NESTING`, if they do. */
export function jsxNestingError(document: string): PageLimitError | undefined {
  const { deepest } = outlineJsx(document)
  if (deepest.depth <= MAX_JSX_NESTING) return undefined
  return new PageLimitError(
    `Unexpected JSX elements nested more than ${MAX_JSX_NESTING} deep (line ${deepest.line}), expected at most ${MAX_JSX_NESTING}; the page is not rendered`,
    { line: deepest.line, column: 1 },
  )
}

export default function remarkJsxLimit(this: Processor): void {
  const parse = this.parser
  if (!parse) return
  this.parser = (document, file) => {
    const nesting = jsxNestingError(document)
    if (nesting) throw nesting
    if (document.length > MAX_BLOCK_BYTES) throw blockTooLarge(document.length)
    return parse(document, file)
  }
}
