/**
 * A prop written as inline Markdown (`caption="See **Settings** → [Keys](/keys)"`) as hast: emphasis,
 * code and links render, block syntax stays text. Links are made relative and checked by the link pass
 * that runs after the components, and the page's sanitiser judges the result like any content.
 */
import type { ElementContent } from 'hast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { toHast } from 'mdast-util-to-hast'

export function inlineMarkdown(text: string): ElementContent[] {
  const tree = fromMarkdown(text)
  const children = tree.children.flatMap((block) =>
    block.type === 'paragraph' ? block.children : [{ type: 'text' as const, value: text }],
  )
  // Several paragraphs in one prop join with a space: a caption is one line.
  const root = toHast({ type: 'paragraph', children })
  return root.type === 'element' ? root.children : []
}
