/**
 * remark plugin: highlight every code fence with the page's highlighter (cached, grammars loaded on
 * first use). The finished markup rides on the node's `data.codeBlock`; `codeHandler` hands it to
 * remark-rehype as is (its default handler would wrap it in another `<pre>`). Mermaid fences are not
 * highlighted: they become a diagram block and mark the page as one that loads the diagram script.
 */
import type { Element } from 'hast'
import type { Code, Root, RootContent } from 'mdast'
import type { State } from 'mdast-util-to-hast'
import type { VFile } from 'vfile'
import { codeBlock, plainPre } from '../highlight/code-block.js'
import { parseCodeMeta } from '../highlight/meta.js'
import { placeOf, report } from './context.js'
import { walkNodes } from './walk-elements.js'

export default function remarkCode() {
  return async (tree: Root, file: VFile): Promise<void> => {
    const page = file.data.page
    if (!page) return
    const fences: Code[] = []
    walkNodes<RootContent>(tree, (node) => {
      if (node.type === 'code') fences.push(node)
    })
    for (const fence of fences) {
      if (fence.lang?.toLowerCase() === 'mermaid') {
        // Drawn in the reader's browser (compiler/theme/client/diagrams.ts); the source is what shows without script.
        fence.data = { ...fence.data, codeBlock: diagramBlock(fence.value) }
        page.mermaid = true
        continue
      }
      const meta = parseCodeMeta(fence.meta)
      const language = fence.lang?.toLowerCase()
      let pre = language ? await page.highlighter.highlight(fence.value, language) : undefined
      if (!pre) {
        if (language && !page.highlighter.knows(language)) {
          report(
            page,
            'warning',
            'unknown-language',
            `Unknown code language "${fence.lang}", rendered as plain text; expected a language shiki knows (e.g. ts, bash, json)`,
            placeOf(fence),
          )
        }
        pre = plainPre(fence.value)
      }
      const block = codeBlock(pre, { language, title: meta.title, highlight: meta.highlight })
      fence.data = { ...fence.data, codeBlock: block }
    }
  }
}

/** `<div class="d-mermaid"><pre class="d-mermaid-source">…</pre></div>`: the diagram's source, unhighlighted. */
function diagramBlock(source: string): Element {
  return {
    type: 'element',
    tagName: 'div',
    properties: { className: ['d-mermaid'] },
    children: [
      {
        type: 'element',
        tagName: 'pre',
        properties: { className: ['d-mermaid-source'] },
        children: [{ type: 'text', value: source }],
      },
    ],
  }
}

declare module 'mdast' {
  interface CodeData {
    codeBlock?: Element
  }
}

/** remark-rehype handler for `code`: the block remark-code prepared, or a plain one. */
export function codeHandler(state: State, node: Code): Element {
  const block = node.data?.codeBlock ?? codeBlock(plainPre(node.value), { language: node.lang ?? undefined })
  state.patch(node, block)
  return block
}
