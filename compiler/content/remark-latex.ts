/**
 * remark plugin, before MDX expressions are read: `<Latex>E = mc^2</Latex>` is math like `$…$`
 * (inline, in a line of text) or `$$…$$` (a block), taken as written (braces and underscores
 * included), so rehype-katex renders all three the same way. Also undoes remark-math where a single
 * `$` is money, not math (Pandoc's rule): `$5 and $10` has a space before its closing `$`, and
 * `$5-$10` a digit right after it; `($/sec), LLM ($/token)` closes a bracket it never opened.
 */
import type { Parent, Root, RootContent } from 'mdast'
import type { InlineMath, Math as MathBlock } from 'mdast-util-math'
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx'
import { toString as textOf } from 'mdast-util-to-string'
import type { VFile } from 'vfile'
import { isJsxElement } from './mdx-static.js'

export default function remarkLatex() {
  return (tree: Root, file: VFile): void => {
    const source = typeof file.value === 'string' ? file.value : undefined
    rewrite(tree, source)
  }
}

/**
 * The same, after snippets and components defined in code: a `<Latex>` they returned is math too. Its
 * text is the element's own (its position is the usage's, not where the formula was written).
 */
export function remarkLatexAfterComponents() {
  return (tree: Root): void => rewrite(tree, undefined)
}

function rewrite(parent: Parent, source: string | undefined): void {
  parent.children = parent.children.flatMap((child, index): RootContent[] => {
    if (isJsxElement(child) && child.name === 'Latex') return [latexToMath(child, source)]
    if (
      child.type === 'inlineMath' &&
      source !== undefined &&
      isMoney(child, source, parent.children[index + 1])
    ) {
      return [
        { type: 'text', value: `$${child.value}$`, ...(child.position ? { position: child.position } : {}) },
      ]
    }
    if ('children' in child) rewrite(child, source)
    return [child]
  })
}

function isMoney(node: InlineMath, source: string, next: RootContent | undefined): boolean {
  const start = node.position?.start.offset
  const end = node.position?.end.offset
  if (start === undefined || end === undefined || source.startsWith('$$', start)) return false
  return (
    /^\s|\s$/.test(node.value) ||
    (next?.type === 'text' && /^\d/.test(next.value)) ||
    closesBeforeOpening(node.value)
  )
}

/** `($/sec), LLM ($/token)`: a `)` with no `(` before it is prose between two dollar signs. */
function closesBeforeOpening(value: string): boolean {
  let depth = 0
  for (const character of value) {
    if (character === '(') depth++
    else if (character === ')' && --depth < 0) return true
  }
  return false
}

function latexToMath(
  element: MdxJsxFlowElement | MdxJsxTextElement,
  source: string | undefined,
): RootContent {
  const start = element.position?.start.offset
  const end = element.position?.end.offset
  const written =
    source !== undefined && start !== undefined && end !== undefined
      ? source
          .slice(start, end)
          .replace(/^<Latex\b[^>]*>/, '')
          .replace(/<\/Latex>$/, '')
      : textOf(element)
  const value = written.trim()
  const position = element.position
  const text = { type: 'text' as const, value }
  const math: MathBlock | InlineMath =
    element.type === 'mdxJsxTextElement'
      ? {
          type: 'inlineMath',
          value,
          data: {
            hName: 'code',
            hProperties: { className: ['language-math', 'math-inline'] },
            hChildren: [text],
          },
        }
      : {
          type: 'math',
          value,
          meta: null,
          data: {
            hName: 'pre',
            hChildren: [
              {
                type: 'element',
                tagName: 'code',
                properties: { className: ['language-math', 'math-display'] },
                children: [text],
                ...(position ? { position } : {}),
              },
            ],
          },
        }
  if (position) math.position = position
  return math as RootContent
}
