/**
 * rehype plugin, after rehype-katex: note that the page shows math (so the shell links KaTeX's
 * stylesheet on this page only) and turn KaTeX's parse errors into diagnostics at their line.
 */
import type { Element, Root } from 'hast'
import type { VFile } from 'vfile'
import { report } from './context.js'
import { walkElements } from './walk-elements.js'

export default function rehypeMathUsage() {
  return (tree: Root, file: VFile): void => {
    const page = file.data.page
    if (!page) return
    walkElements(tree, (node: Element) => {
      const classes = node.properties.className
      if (Array.isArray(classes) && (classes.includes('katex') || classes.includes('katex-display'))) {
        page.math = true
        return false
      }
      return undefined
    })
    for (const message of file.messages) {
      if (message.source !== 'rehype-katex') continue
      const cause = message.cause instanceof Error ? message.cause.message : message.reason
      report(
        page,
        'problem',
        'math-syntax',
        `Unexpected LaTeX: ${cause.replace(/^KaTeX parse error: /, '')}; the source is shown as written`,
        message.line === undefined ? undefined : { line: message.line, column: message.column ?? 1 },
      )
    }
  }
}
