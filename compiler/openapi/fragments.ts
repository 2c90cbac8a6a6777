/**
 * Generated API pages parsed block by block. A 1,000-operation spec gives 1,000 pages that repeat the
 * same blocks (a `$ref`'d schema's fields, a parameter, a heading), and parsing MDX is most of a page's
 * render time. The generator records where each top-level block of a page starts, in a fragment index
 * beside the page (`_openapi/fragments/<page>.json`, never published); the render parses each block once
 * per process and reuses a copy with its positions moved to where the block sits on this page. The tree
 * is the one a parse of the whole page gives, positions and expression locations included, so the HTML,
 * `.md` export and diagnostics are unchanged; whenever that could differ (a link definition, a block
 * that would read as front matter, a parse error, a block past a parse limit) the whole page is parsed.
 * Long authored pages are parsed block by block too (content/long-page.ts), with `parseBlocks`.
 */
import { createHash } from 'node:crypto'
import type { Root } from 'mdast'
import type { Node, Parent } from 'unist'
import { VFile } from 'vfile'

/** Where fragment indexes are kept in the file map; the API stage drops any uploaded there. */
export const FRAGMENTS_FOLDER = '_openapi/fragments/'

/** Where the fragment index of the generated page `file` is kept in the file map. */
export const fragmentsPath = (file: string): string => `${FRAGMENTS_FOLDER}${file}.json`

interface FragmentIndex {
  /** sha256 of the page source the offsets belong to: an index never applies to other text. */
  sha256: string
  /** Offset of each top-level block; the first is 0 (the front matter). */
  starts: number[]
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

export interface GeneratedPage {
  source: string
  /** The fragment index, for `fragmentsPath(file)`. */
  index: Uint8Array
}

/**
 * A page made of its front matter and blocks joined by blank lines, with the index of those blocks;
 * an `openapi:` page's own MDX (`authored`) follows as one last block.
 */
export function pageFromBlocks(
  frontMatter: string,
  blocks: readonly string[],
  authored?: string,
): GeneratedPage {
  const starts = [0]
  let offset = frontMatter.length
  for (const block of blocks) {
    starts.push(offset)
    offset += block.length + 2
  }
  let source = `${frontMatter}${blocks.join('\n\n')}\n`
  if (authored !== undefined) {
    // The author's block starts at its first line that is not blank.
    starts.push(source.length + 1 + /^(?:[ \t]*\n)*/.exec(authored)![0].length)
    source += `\n${authored}`
  }
  const index: FragmentIndex = { sha256: sha256(source), starts }
  return { source, index: encoder.encode(JSON.stringify(index)) }
}

/** Anything whose meaning reaches across blocks (link and footnote definitions) makes blocks depend on each other. */
const definition = /^ {0,3}\[[^\]\n]*\]:/m

/** Parses one block on its own: the page's own parser, with its limits. */
export interface BlockParser {
  parse(file: VFile): unknown
}

/** Parsed blocks by their text, per parser, for the life of the process (bounded). */
const parsed = new WeakMap<BlockParser, Map<string, Root>>()
const MAX_CACHED_BLOCKS = 4000

/**
 * The tree of a generated page from its blocks, or `undefined` when the page must be parsed whole
 * (no or stale index, or any reason the blocks might not parse as they do in the page).
 */
export function parseInFragments(
  parser: BlockParser,
  file: string,
  source: string,
  indexBytes: Uint8Array | undefined,
): Root | undefined {
  if (!indexBytes) return undefined
  let index: FragmentIndex
  try {
    index = JSON.parse(decoder.decode(indexBytes)) as FragmentIndex
  } catch {
    return undefined
  }
  const { starts } = index
  if (!Array.isArray(starts) || starts[0] !== 0 || index.sha256 !== sha256(source)) return undefined
  if (definition.test(source)) return undefined

  let cache = parsed.get(parser)
  if (!cache) {
    cache = new Map()
    parsed.set(parser, cache)
  }
  try {
    return parseBlocks(parser, file, source, starts, cache)
  } catch {
    return undefined
  }
}

/** A block of a page parsed on its own failed: the parser's error, and where the block sits on the page. */
export class BlockParseError extends Error {
  constructor(
    override readonly cause: unknown,
    /** Lines before the block on the page. */
    readonly lines: number,
    /** Offset of the block on the page. */
    readonly offset: number,
  ) {
    super('A block of the page did not parse on its own')
    this.name = 'BlockParseError'
  }
}

/**
 * The tree of `source` from its top-level blocks starting at `starts` (the first is 0), each parsed on
 * its own and moved to where it sits, or `undefined` when the blocks might not parse as they do in the
 * page. A block the parser refuses throws `BlockParseError`. `cache` keeps parsed blocks by their text.
 * `definitions` (link and footnote definitions of the page) are parsed after each block, so its
 * references resolve, and left out of its tree.
 */
export function parseBlocks(
  parser: BlockParser,
  file: string,
  source: string,
  starts: readonly number[],
  cache?: Map<string, Root>,
  definitions?: string,
): Root | undefined {
  const children: Root['children'] = []
  let first: Root | undefined
  let last: Root | undefined
  let lines = 0
  for (let at = 0; at < starts.length; at++) {
    const start = starts[at]!
    const end = starts[at + 1] ?? source.length
    if (!(end > start) || end > source.length) return undefined
    const text = source.slice(start, end)
    // Only the page's start may be front matter; a block that would read as front matter, or an
    // indented one (code, or a list item's continuation), is parsed with the rest of the page.
    if (at > 0 && (/^(---|\+\+\+)/.test(text) || /^\s/.test(text))) return undefined
    let block = cache?.get(text)
    if (!block) {
      try {
        const value = definitions ? `${text}\n\n${definitions}\n` : text
        block = parser.parse(new VFile({ path: file, value })) as Root
      } catch (error) {
        throw new BlockParseError(error, lines, start)
      }
      if (definitions)
        block.children = block.children.filter((child) => (child.position?.start.offset ?? 0) < text.length)
      if (cache) {
        if (cache.size >= MAX_CACHED_BLOCKS) cache.clear()
        cache.set(text, block)
      }
    }
    // A fence or math block left open runs to the end of the page, past this block: parse it whole.
    if (at < starts.length - 1 && endsOpen(block, text)) return undefined
    // A cached block is copied, so the page's plugins never change it; a block parsed for this page only is moved in place.
    const moved = (cache ? shifted(block, lines, start) : moveInPlace(block, lines, start)) as Root
    first ??= moved
    last = moved
    for (const child of moved.children) children.push(child)
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++
  }
  const root: Root = { type: 'root', children }
  if (first?.position && last?.position)
    root.position = { start: first.position.start, end: last.position.end }
  return root
}

/** Whether the block's last leaf is a fenced code or math block without its closing fence. */
function endsOpen(block: Root, text: string): boolean {
  let node: Node = block
  while ('children' in node && Array.isArray(node.children) && node.children.length > 0)
    node = (node as Parent).children.at(-1)!
  if (node.type !== 'code' && node.type !== 'math') return false
  const raw = text.slice(node.position?.start.offset ?? 0, node.position?.end.offset ?? text.length).trimEnd()
  const opening = /^[ \t>]*(`{3,}|~{3,}|\${2,})/.exec(raw)
  if (!opening) return false
  const closing = raw.slice(raw.lastIndexOf('\n') + 1).replace(/^[ \t>]*/, '')
  return !(raw.includes('\n') && closing.startsWith(opening[1]!) && /^(.)\1*$/.test(closing))
}

interface Point {
  line: number
  column: number
  offset?: number
}

const movedPoint = (point: Point, lines: number, offset: number): Point => ({
  ...point,
  line: point.line + lines,
  ...(typeof point.offset === 'number' ? { offset: point.offset + offset } : {}),
})

/**
 * A deep copy of a parsed block with every place moved `lines` down and `offset` on: unist positions,
 * and the `start`/`end`/`range`/`loc` of the estree programs MDX expressions carry. Blocks start at a
 * line's start, so columns stay. Prototypes are kept (acorn's nodes), regular expressions shared.
 */
function shifted(value: unknown, lines: number, offset: number): unknown {
  if (Array.isArray(value)) return value.map((item) => shifted(item, lines, offset))
  if (value === null || typeof value !== 'object' || value instanceof RegExp) return value
  const source = value as Record<string, unknown>
  const copy = Object.create(Object.getPrototypeOf(source)) as Record<string, unknown>
  const estree = 'loc' in source || 'range' in source
  for (const key of Object.keys(source)) {
    const item = source[key]
    if ((key === 'position' || key === 'loc') && item && typeof item === 'object') {
      const span = item as { start: Point; end: Point }
      copy[key] = {
        ...span,
        start: movedPoint(span.start, lines, offset),
        end: movedPoint(span.end, lines, offset),
      }
    } else if (estree && (key === 'start' || key === 'end') && typeof item === 'number')
      copy[key] = item + offset
    else if (estree && key === 'range' && Array.isArray(item))
      copy[key] = item.map((bound) => (typeof bound === 'number' ? bound + offset : bound))
    else copy[key] = shifted(item, lines, offset)
  }
  return copy
}

/** `shifted` without the copy: the block's places moved `lines` down and `offset` on, in place. */
function moveInPlace(value: unknown, lines: number, offset: number): unknown {
  if (lines === 0 && offset === 0) return value
  const stack: unknown[] = [value]
  // An object reached twice (an estree comment, say) is moved once.
  const seen = new WeakSet<object>()
  while (stack.length > 0) {
    const item = stack.pop()
    if (item === null || typeof item !== 'object' || seen.has(item)) continue
    seen.add(item)
    if (Array.isArray(item)) {
      for (const entry of item) stack.push(entry)
      continue
    }
    if (item instanceof RegExp) continue
    const node = item as Record<string, unknown>
    const estree = 'loc' in node || 'range' in node
    for (const key of Object.keys(node)) {
      const entry = node[key]
      if ((key === 'position' || key === 'loc') && entry && typeof entry === 'object') {
        const span = entry as { start: Point; end: Point }
        node[key] = {
          ...span,
          start: movedPoint(span.start, lines, offset),
          end: movedPoint(span.end, lines, offset),
        }
      } else if (estree && (key === 'start' || key === 'end') && typeof entry === 'number')
        node[key] = entry + offset
      else if (estree && key === 'range' && Array.isArray(entry))
        node[key] = entry.map((bound) => (typeof bound === 'number' ? bound + offset : bound))
      else stack.push(entry)
    }
  }
  return value
}
