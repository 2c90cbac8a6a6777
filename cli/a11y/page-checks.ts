/**
 * The accessibility checks `docsctl a11y` runs on a page's source, each problem at its line and
 * column: images without alt text, headings that skip a level, links with no text or with text that
 * says nothing out of context ("click here"). Fenced code blocks and inline code are examples and are
 * skipped; the front matter `title` is the page's h1.
 */
import type { Diagnostic } from '../../compiler/diagnostics.js'

/** Link texts that say nothing when a screen reader lists the page's links. */
const VAGUE_LINK_TEXTS = new Set([
  'click',
  'click here',
  'go here',
  'here',
  'learn more',
  'link',
  'more',
  'read more',
  'see here',
  'this',
  'this link',
  'this page',
])

/** `text` with inline code spans blanked (same length, so columns stay right). */
const blankInlineCode = (text: string) => text.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length))

/** What a screen reader reads for a link's content: its words, without markup. */
const readableText = (content: string) =>
  content
    .replace(/<[^>]*>/g, '')
    .replace(/[*_~`]/g, '')
    .trim()

export function pageProblems(file: string, source: string): Diagnostic[] {
  const problems: Diagnostic[] = []
  const lines = source.split('\n')
  let index = 0
  let hasTitle = false
  if (/^(?:\uFEFF)?---\r?$/.test(lines[0] ?? '')) {
    const end = lines.findIndex((line, at) => at > 0 && /^---\r?$/.test(line))
    if (end > 0) {
      hasTitle = lines.slice(1, end).some((line) => /^title\s*:\s*\S/.test(line))
      index = end + 1
    }
  }
  let previousLevel = hasTitle ? 1 : 0
  let fence: string | undefined
  const report = (
    severity: Diagnostic['severity'],
    rule: string,
    line: number,
    column: number,
    message: string,
  ) => problems.push({ severity, file, line, column, rule, message })

  for (; index < lines.length; index++) {
    const raw = lines[index]!.replace(/\r$/, '')
    const lineNumber = index + 1
    const marker = /^\s*(`{3,}|~{3,})/.exec(raw)?.[1]
    if (marker) {
      if (fence === undefined) fence = marker
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined
      continue
    }
    if (fence !== undefined) continue
    const line = blankInlineCode(raw)

    // Headings: `## Title` and `<h2>`.
    const heading = /^ {0,3}(#{1,6})[ \t]+\S/.exec(line) ?? /^\s*<h([1-6])\b/i.exec(line)
    if (heading) {
      const level = heading[1]!.startsWith('#') ? heading[1]!.length : Number(heading[1])
      const column = line.search(/\S/) + 1
      if (level === 1 && hasTitle)
        report(
          'warning',
          'heading-order',
          lineNumber,
          column,
          'Unexpected h1, expected ## (h2): the page title is the h1',
        )
      else if (level > previousLevel + 1)
        report(
          'warning',
          'heading-order',
          lineNumber,
          column,
          `Heading level skipped (h${previousLevel || 1} → h${level}); use ${'#'.repeat(previousLevel + 1)} (h${previousLevel + 1}) so screen-reader users can follow the outline`,
        )
      previousLevel = level
    }

    // Images: `![alt](src)` and `<img>`.
    for (const image of line.matchAll(/!\[([^\]]*)\]\(/g)) {
      if (image[1]!.trim() === '')
        report(
          'error',
          'image-alt',
          lineNumber,
          image.index + 1,
          'Image without alt text; describe it: ![What it shows](…)',
        )
    }
    for (const image of line.matchAll(/<img\b[^>]*>/gi)) {
      if (!/\balt\s*=/.test(image[0]))
        report(
          'error',
          'image-alt',
          lineNumber,
          image.index + 1,
          'Image without alt text; add alt="what it shows" (alt="" only for a decorative image)',
        )
    }

    // Links: `[text](href)` (not images) and `<a href>text</a>`.
    const links = [
      ...[...line.matchAll(/(?<!!)\[([^\]]*)\]\([^)]*\)/g)].map((match) => ({
        at: match.index,
        text: readableText(match[1]!),
        labelled: false,
      })),
      ...[...line.matchAll(/<a\b([^>]*)>(.*?)<\/a>/gi)].map((match) => ({
        at: match.index,
        text: readableText(match[2]!),
        labelled:
          /\baria-label(?:ledby)?\s*=/.test(match[1]!) || /<img\b[^>]*\balt\s*=\s*["'][^"']+/.test(match[2]!),
      })),
    ]
    for (const link of links) {
      if (link.labelled) continue
      if (link.text === '')
        report(
          'error',
          'link-text',
          lineNumber,
          link.at + 1,
          'Link without text; screen readers read its URL instead: say where it leads',
        )
      else if (VAGUE_LINK_TEXTS.has(link.text.toLowerCase().replace(/[.!:,…]+$/, '')))
        report(
          'warning',
          'link-text',
          lineNumber,
          link.at + 1,
          `Link text "${link.text}" says nothing out of context; name where it leads ("the installation guide")`,
        )
    }
  }
  return problems
}
