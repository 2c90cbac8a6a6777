/**
 * A quick outline of an MDX document's JSX, read before the parser runs: how deep its elements nest
 * (and where), and where its top-level blocks start. It reads tags, quoted attribute values, `{…}`
 * expressions, inline code and fenced code as the parser does, closely enough for limits and for
 * splitting a long page into blocks; the parser still decides what the page means.
 */

export interface JsxOutline {
  /** The deepest element nesting, and the line where it is first reached. */
  deepest: { depth: number; line: number }
  /**
   * Offsets of top-level blocks a long page may be parsed from on their own: after a blank line, with
   * no element, expression, tag or code fence open, at a line that starts a new block at column 0
   * (a heading, an element, a paragraph) and cannot continue the one before (a list item, a quote, a
   * table row, a definition). The first is 0, where front matter starts.
   */
  starts: number[]
  /** Link and footnote definition lines outside code, unindented: what any block may refer to. */
  definitions: string[]
}

// A line that opens a top-level block no earlier block can continue or claim.
const blockOpener = /^(?:<[A-Za-z>]|#|[A-Za-z])/
const fenceOpener = /^[ \t]*(`{3,}|~{3,}|\${2,})(.*)$/
const frontMatter = /^(?:---|\+\+\+)[ \t]*\r?\n/
const definition = /^ {0,3}\[[^\]\n]+\]:/

export function outlineJsx(document: string): JsxOutline {
  const starts = [0]
  const definitions: string[] = []
  let depth = 0
  let deepest = { depth: 0, line: 1 }
  let braces = 0
  let quote = ''
  let tag: 'open' | 'close' | undefined
  let fence: { marker: string; length: number } | undefined
  let blankBefore = false

  let position = 0
  let line = 1
  // Front matter is read by its own parser: skip to the line after its closing fence.
  const opening = frontMatter.exec(document)
  if (opening) {
    const marker = opening[0].slice(0, 3)
    const close = new RegExp(`\\n\\${marker[0]}{3}[ \\t]*(?:\\r?\\n|$)`, 'g')
    close.lastIndex = opening[0].length - 1
    const end = close.exec(document)
    if (end) {
      position = end.index + end[0].length
      line += countLines(document, 0, position)
    }
  }

  while (position < document.length) {
    const newline = document.indexOf('\n', position)
    const end = newline === -1 ? document.length : newline
    const text = document.slice(position, end)
    const quiet = braces === 0 && depth === 0 && tag === undefined && quote === ''

    if (fence) {
      const closing = fenceOpener.exec(text)
      if (
        closing &&
        closing[1]![0] === fence.marker &&
        closing[1]!.length >= fence.length &&
        !closing[2]!.trim()
      )
        fence = undefined
    } else if (text.trim() === '') {
      if (quiet) blankBefore = true
    } else {
      if (blankBefore && quiet && blockOpener.test(text) && position > 0) starts.push(position)
      blankBefore = false
      if (definition.test(text)) definitions.push(text.trimStart())
      const fenced = tag === undefined && braces === 0 && quote === '' ? fenceOpener.exec(text) : null
      if (fenced && !(fenced[1]![0] === '`' && fenced[2]!.includes('`')) && !fenced[2]!.includes('$$'))
        fence = { marker: fenced[1]![0]!, length: fenced[1]!.length }
      else readLine(text)
    }
    position = end + 1
    line++
  }
  return { deepest, starts, definitions }

  function readLine(text: string): void {
    for (let at = 0; at < text.length; at++) {
      const char = text[at]!
      if (quote) {
        if (char === quote) quote = ''
      } else if (braces > 0) {
        if (char === '{') braces++
        else if (char === '}') braces--
        else if (char === '"' || char === "'" || char === '`') {
          // A string inside an expression: braces in it do not count.
          const close = text.indexOf(char, at + 1)
          if (close !== -1) at = close
        }
      } else if (tag) {
        if (char === '"' || char === "'") quote = char
        else if (char === '{') braces++
        else if (char === '/' && text[at + 1] === '>') {
          tag = undefined
          at++
        } else if (char === '>') {
          if (tag === 'open') enter()
          else depth = Math.max(0, depth - 1)
          tag = undefined
        }
      } else if (char === '\\') at++
      else if (char === '`') {
        // Inline code: skip to the closing run of as many backticks, if it is on this line.
        let run = 1
        while (text[at + run] === '`') run++
        const ticks = '`'.repeat(run)
        const close = text.indexOf(ticks, at + run)
        at = close === -1 ? at + run - 1 : close + run - 1
      } else if (char === '{') braces++
      else if (char === '<') {
        const next = text[at + 1]
        if (next === '>') {
          enter()
          at++
        } else if (next === '/') {
          if (text[at + 2] === '>') {
            depth = Math.max(0, depth - 1)
            at += 2
          } else if (/[A-Za-z]/.test(text[at + 2] ?? '')) {
            tag = 'close'
            at++
          }
        } else if (next && /[A-Za-z]/.test(next)) {
          // `<https://…>` and `<name@host>` are links, not elements.
          const name = /^[A-Za-z][\w.-]*/.exec(text.slice(at + 1, at + 200))![0]
          const after = text[at + 1 + name.length]
          if (after !== ':' && after !== '@') tag = 'open'
        }
      }
    }
  }

  function enter(): void {
    depth++
    if (depth > deepest.depth) deepest = { depth, line }
  }
}

function countLines(text: string, from: number, to: number): number {
  let lines = 0
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) lines++
  return lines
}
