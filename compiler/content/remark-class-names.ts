/**
 * remark plugin, after components defined in code have rendered: note the class names written on HTML
 * elements (`<img className="dark:hidden">`, `<div class="flex gap-2">`), whether in the page or in
 * what a code component returned, and on built-in components (`<Card className="mt-8">`, which put
 * them on their root element: compiler/content/rehype-components.ts). They are the candidates the
 * site's Tailwind stylesheet is compiled from (compiler/theme/tailwind.ts). The `d-` classes built-in
 * components add themselves are the theme's, never candidates.
 */
import type { Root, RootContent } from 'mdast'
import type { VFile } from 'vfile'
import { isJsxElement } from './mdx-static.js'
import { walkNodes } from './walk-elements.js'

export default function remarkClassNames() {
  return (tree: Root, file: VFile): void => {
    const page = file.data.page
    if (!page) return
    walkNodes<RootContent>(tree, (node) => {
      if (!isJsxElement(node) || !node.name) return
      const props = node.data?.props
      for (const value of [props?.className, props?.class]) {
        if (typeof value !== 'string') continue
        for (const name of value.split(/\s+/)) if (name) page.classNames.add(name)
      }
    })
  }
}
