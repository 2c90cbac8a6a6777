/**
 * rehype plugin: rehype-katex, run only on pages that hold math (the classes remark-math and
 * ```math fences give), so the many pages without any skip its walk over the whole tree.
 */
import type { Root } from 'hast'
import rehypeKatex, { type Options } from 'rehype-katex'
import type { VFile } from 'vfile'
import { hasElementWithClass } from './walk-elements.js'

/** The classes rehype-katex renders (node_modules/rehype-katex/lib/index.js). */
const MATH_CLASSES = ['language-math', 'math-display', 'math-inline'] as const

export default function rehypeMath(options: Options) {
  const katex = rehypeKatex(options)
  return (tree: Root, file: VFile): void => {
    if (hasElementWithClass(tree, MATH_CLASSES)) katex(tree, file)
  }
}
