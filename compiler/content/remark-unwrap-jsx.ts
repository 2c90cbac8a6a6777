/**
 * remark plugin: a paragraph that holds nothing but block components (`<Note>…</Note>` written on one
 * line, or indented `<Tab>`s) becomes those components as blocks, so the HTML has no `<aside>` or
 * `<div>` inside a `<p>` and parent components find their children where they expect them.
 */
import type { Paragraph, Parent, Root, RootContent } from 'mdast'
import type { MdxJsxFlowElement } from 'mdast-util-mdx-jsx'

/** Components that belong inside a line of text; everything else capitalised is a block. */
const INLINE_COMPONENTS = new Set(['Icon', 'Badge', 'Tooltip', 'Link'])

/** HTML elements that cannot sit inside a `<p>`. */
const BLOCK_ELEMENTS = new Set(
  'address article aside blockquote details dialog div dl figure figcaption footer form h1 h2 h3 h4 h5 h6 header hr iframe main nav ol p pre section table ul video'.split(
    ' ',
  ),
)

const isBlockName = (name: string): boolean =>
  /^[A-Z]/.test(name) ? !INLINE_COMPONENTS.has(name) : BLOCK_ELEMENTS.has(name)

export default function remarkUnwrapJsx() {
  return (tree: Root): void => {
    unwrap(tree)
  }
}

function unwrap(parent: Parent): void {
  parent.children = parent.children.flatMap((child): RootContent[] => {
    if (child.type === 'paragraph' && holdsOnlyBlocks(child)) {
      return child.children.flatMap((node) => {
        if (node.type !== 'mdxJsxTextElement') return []
        const block = { ...node, type: 'mdxJsxFlowElement' } as unknown as MdxJsxFlowElement
        unwrap(block)
        return [block]
      })
    }
    if ('children' in child) unwrap(child)
    return [child]
  })
}

function holdsOnlyBlocks(paragraph: Paragraph): boolean {
  let blocks = 0
  for (const node of paragraph.children) {
    if (node.type === 'text' && node.value.trim() === '') continue
    if (node.type !== 'mdxJsxTextElement' || !node.name || !isBlockName(node.name)) return false
    blocks++
  }
  return blocks > 0
}
