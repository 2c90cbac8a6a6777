/**
 * Pages written for Markdown-first platforms often hold text MDX refuses: `<your-key>`, `x <= 3`,
 * `<!-- comments -->`. Rather than lose a page's components over one such spot, a failed parse is
 * repaired where the parser stopped (the `<` escaped as text, comments blanked) and tried again;
 * each repair is reported with its place. Repairs never add or remove lines, so line numbers stay true.
 */
import { blankHtmlComments } from './html-comments.js'

export interface MdxRepair {
  source: string
  line: number
  column: number
  rule: 'html-comment' | 'unescaped-less-than' | 'unclosed-component'
  message: string
}

interface ParseFailure {
  reason?: unknown
  place?: unknown
  line?: unknown
  column?: unknown
}

export function repairMdx(source: string, error: unknown): MdxRepair | undefined {
  if (!error || typeof error !== 'object') return undefined
  const failure = error as ParseFailure
  const reason = typeof failure.reason === 'string' ? failure.reason : ''
  const lineStarts = [0]
  for (let index = source.indexOf('\n'); index !== -1; index = source.indexOf('\n', index + 1))
    lineStarts.push(index + 1)
  const offsetOf = (line: number, column: number): number =>
    (lineStarts[line - 1] ?? source.length) + column - 1

  let lessThan: number | undefined
  const unclosed = /Expected a closing tag for `<([^`\s>]*)[^`]*>` \((\d+):(\d+)-/.exec(reason)
  if (unclosed) lessThan = offsetOf(Number(unclosed[2]), Number(unclosed[3]))
  else if (/before name|after name|in name|before attribute|before closing slash/.test(reason)) {
    const line = typeof failure.line === 'number' ? failure.line : undefined
    const column = typeof failure.column === 'number' ? failure.column : undefined
    if (line === undefined || column === undefined) return undefined
    // The parser stops just after the `<` that opened what it took for a tag; find that `<`.
    const stop = offsetOf(line, column)
    lessThan = source.lastIndexOf('<', stop)
    if (lessThan === -1 || stop - lessThan > 200) return undefined
  }
  if (lessThan === undefined || source[lessThan] !== '<') return undefined
  const line = lineStarts.filter((start) => start <= lessThan).length
  const column = lessThan - (lineStarts[line - 1] ?? 0) + 1

  if (source.startsWith('<!--', lessThan)) {
    const blanked = blankHtmlComments(source)
    if (blanked.count === 0) return undefined
    return {
      source: blanked.text,
      line,
      column,
      rule: 'html-comment',
      message: 'Unexpected HTML comment `<!-- … -->` in MDX, expected `{/* … */}`; the comment is left out',
    }
  }
  const excerpt = source
    .slice(lessThan, source.indexOf('\n', lessThan) === -1 ? undefined : source.indexOf('\n', lessThan))
    .slice(0, 30)
  // `\<` is one character wider than `<`: later columns on this line shift by one, lines do not.
  const escaped = `${source.slice(0, lessThan)}\\<${source.slice(lessThan + 1)}`
  const name = unclosed?.[1]
  if (name && /^[A-Z]/.test(name))
    return {
      source: escaped,
      line,
      column,
      rule: 'unclosed-component',
      message: `Unclosed \`<${name}>\`: missing \`</${name}>\`, expected after its content (or write \`<${name} />\`); the tag is shown as text`,
    }
  return {
    source: escaped,
    line,
    column,
    rule: 'unescaped-less-than',
    message: `Unexpected \`<\` that starts no valid tag (\`${excerpt}\`), expected a component or \`\\<\` for a literal "<"; shown as text`,
  }
}
