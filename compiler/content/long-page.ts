/**
 * Long pages parsed block by block. The MDX parser holds every token of what it parses at once, and a
 * reference page of 30,000 `<ParamField>` tags parsed whole needs gigabytes, past a thread's heap
 * limit; V8 can then abort the whole process while growing that one token array instead of ending the
 * thread (nodejs/node#47224). Parsed in groups of top-level blocks (jsx-outline.ts), the parser's
 * memory is bounded by the largest group, and the page's cost grows with its length like every other
 * stage's. A single block too large to parse safely is refused as a page-local error: that bounds the
 * work of one parse, not the length of a page.
 */
import type { Root } from 'mdast'
import type { VFile } from 'vfile'
import { type BlockParseError, type BlockParser, parseBlocks } from '../openapi/fragments.js'
import { outlineJsx } from './jsx-outline.js'
import { blockTooLarge, jsxNestingError, MAX_BLOCK_BYTES } from './remark-jsx-limit.js'

/** A page longer than this (in UTF-16 units, as the parser counts) is parsed in groups of blocks. */
export const LONG_PAGE_BYTES = 128 * 1024

/** Blocks are grouped into one parse up to this size. */
const GROUP_BYTES = 64 * 1024

/**
 * The tree of a long page from groups of its blocks, or `undefined` for a page short enough to parse
 * whole (or one whose blocks might not parse as they do in the page). Throws `PageLimitError` for a
 * block past `MAX_BLOCK_BYTES`, and `BlockParseError` where a block does not parse.
 */
export function parseLongPage(parser: BlockParser, file: VFile, source: string): Root | undefined {
  if (source.length <= LONG_PAGE_BYTES) return undefined
  const nesting = jsxNestingError(source)
  if (nesting) throw nesting
  const { starts, definitions } = outlineJsx(source)
  const groups: number[] = []
  let bytes = 0
  for (let at = 0; at < starts.length; at++) {
    const start = starts[at]!
    const size = (starts[at + 1] ?? source.length) - start
    if (size > MAX_BLOCK_BYTES) throw blockTooLarge(size, source.slice(0, start).split('\n').length)
    if (groups.length === 0 || bytes + size > GROUP_BYTES) {
      groups.push(start)
      bytes = 0
    }
    bytes += size
  }
  // Definitions are read by every group, so a reference resolves wherever its definition is.
  return parseBlocks(parser, String(file.path), source, groups, undefined, definitions.join('\n'))
}

/**
 * A block's parse error placed on the page: its line, its offset and the places its reason names are
 * moved to where the block sits, so repairs and diagnostics point into the page.
 */
export function placedOnPage(error: BlockParseError): unknown {
  const cause = error.cause as { reason?: unknown; message?: unknown; line?: unknown; column?: unknown }
  if (!cause || typeof cause !== 'object' || typeof cause.line !== 'number') return cause
  const move = (text: string) =>
    text.replace(
      /\((\d+):(\d+)-(\d+):(\d+)\)/g,
      (_, l1, c1, l2, c2) => `(${Number(l1) + error.lines}:${c1}-${Number(l2) + error.lines}:${c2})`,
    )
  const reason = typeof cause.reason === 'string' ? cause.reason : String(cause.message ?? cause)
  return {
    reason: move(reason),
    message: move(reason),
    line: cause.line + error.lines,
    ...(typeof cause.column === 'number' ? { column: cause.column } : {}),
  }
}
