/**
 * The markup around a highlighted `<pre>`: an optional title bar, the copy button the shell script
 * wires up, highlighted lines marked with `highlighted`. Class names are documented in
 * compiler/components/index.ts.
 */
import type { Element, ElementContent } from 'hast'

export interface CodeBlockOptions {
  language?: string | undefined
  title?: string | undefined
  highlight?: readonly number[]
}

export function codeBlock(pre: Element, options: CodeBlockOptions): Element {
  if (options.highlight && options.highlight.length > 0) markLines(pre, new Set(options.highlight))
  const properties: Element['properties'] = { className: ['d-code'] }
  if (options.language) properties.dataLanguage = options.language
  if (options.title) properties.dataTitle = options.title
  const children: ElementContent[] = []
  if (options.title) {
    children.push({
      type: 'element',
      tagName: 'div',
      properties: { className: ['d-code-header'] },
      children: [
        {
          type: 'element',
          tagName: 'span',
          properties: { className: ['d-code-title'] },
          children: [{ type: 'text', value: options.title }],
        },
      ],
    })
  }
  children.push(pre, {
    type: 'element',
    tagName: 'button',
    properties: { type: 'button', className: ['copy', 'd-code-copy'], ariaLabel: 'Copy code', dataCopy: '' },
    children: [{ type: 'text', value: 'Copy' }],
  })
  return { type: 'element', tagName: 'div', properties, children }
}

/** A `<pre>` shaped like shiki's, without colours: for unknown languages and fences with none. */
export function plainPre(code: string): Element {
  const lines = code.split('\n')
  const children: ElementContent[] = []
  lines.forEach((line, index) => {
    if (index > 0) children.push({ type: 'text', value: '\n' })
    children.push({
      type: 'element',
      tagName: 'span',
      properties: { className: ['line'] },
      children: line ? [{ type: 'text', value: line }] : [],
    })
  })
  return {
    type: 'element',
    tagName: 'pre',
    properties: { className: ['shiki', 'd-code-plain'], tabIndex: 0 },
    children: [{ type: 'element', tagName: 'code', properties: {}, children }],
  }
}

function markLines(pre: Element, lines: ReadonlySet<number>): void {
  const code = pre.children.find(
    (node): node is Element => node.type === 'element' && node.tagName === 'code',
  )
  if (!code) return
  let number = 0
  for (const node of code.children) {
    if (node.type !== 'element' || node.tagName !== 'span') continue
    number++
    if (!lines.has(number)) continue
    // shiki writes `class` as a plain string property; hast's own name for it is `className`.
    const { class: raw, className, ...rest } = node.properties
    const written = className ?? raw
    const classes = Array.isArray(written) ? written.map(String) : written ? String(written).split(' ') : []
    node.properties = { ...rest, className: [...classes, 'highlighted'] }
  }
}
