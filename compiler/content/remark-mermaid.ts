/**
 * remark plugin, after components defined in code have rendered: `<Mermaid chart="…"/>` and
 * `<Mermaid>…</Mermaid>` become ```` ```mermaid ```` fences, taken as written (a diagram's `-->` and
 * `[text]` are not Markdown), so remark-code shows all three the same way and the `.md` export keeps
 * the diagram's source.
 */
import type { Code, Parent, Root, RootContent } from 'mdast'
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx'
import { toString as textOf } from 'mdast-util-to-string'
import type { VFile } from 'vfile'
import { type PageContext, placeOf, report } from './context.js'
import { isJsxElement } from './mdx-static.js'

export default function remarkMermaid() {
  return (tree: Root, file: VFile): void => {
    const source = typeof file.value === 'string' ? file.value : undefined
    rewrite(tree, source, file.data.page)
  }
}

function rewrite(parent: Parent, source: string | undefined, page: PageContext | undefined): void {
  parent.children = parent.children.flatMap((child): RootContent[] => {
    if (!isJsxElement(child) || child.name !== 'Mermaid') {
      if ('children' in child) rewrite(child, source, page)
      return [child]
    }
    const fence = mermaidFence(child, source)
    if (fence.value.trim()) return [fence]
    if (page)
      report(
        page,
        'warning',
        'empty-diagram',
        'Unexpected empty <Mermaid>, expected a `chart` prop or the diagram as its children; it is left out',
        placeOf(child),
      )
    return []
  })
}

function mermaidFence(element: MdxJsxFlowElement | MdxJsxTextElement, source: string | undefined): Code {
  const chart = element.data?.props?.chart
  const fence: Code = { type: 'code', lang: 'mermaid', meta: null, value: '' }
  if (element.position) fence.position = element.position
  if (typeof chart === 'string') {
    fence.value = dedent(chart)
    return fence
  }
  const start = element.position?.start.offset
  const end = element.position?.end.offset
  const written =
    source !== undefined && start !== undefined && end !== undefined && source.startsWith('<Mermaid', start)
      ? source
          .slice(start, end)
          .replace(/^<Mermaid\b[^>]*>/, '')
          .replace(/<\/Mermaid>$/, '')
      : textOf(element)
  fence.value = dedent(written)
  return fence
}

/** The diagram without the indentation it took from the MDX around it (mermaid reads indented lines alike). */
function dedent(text: string): string {
  const lines = text
    .replace(/^\s*\n/, '')
    .trimEnd()
    .split('\n')
  const indents = lines.filter((line) => line.trim()).map((line) => /^[ \t]*/.exec(line)![0].length)
  const common = indents.length > 0 ? Math.min(...indents) : 0
  return lines.map((line) => line.slice(common)).join('\n')
}
