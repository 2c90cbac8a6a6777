/**
 * The unified pipeline that renders one page, with its stages in one place:
 *   remark-parse (behind the nesting limit) → remark-frontmatter → remark-gfm → remark-math → remark-mdx (behind the JSX tag limit)
 *   → our remark plugins (blocks the .md export copies as written, block JSX out of paragraphs, <Latex> as math, static MDX, snippets, components
 *     defined in code (run in the sandbox), <Latex> they return as math, <Mermaid> as a fence, Tailwind class names, .md export,
 *     code highlighting; Mermaid fences become diagram blocks)
 *   → remark-rehype → KaTeX → our rehype plugins (math usage, components, headings, links, task lists)
 *   → the allow-list sanitiser, last, so nothing added after it escapes it → rehype-stringify.
 * Create it once and reuse it: it is frozen, and everything page-specific travels in `file.data.page`.
 */

import rehypeStringify from 'rehype-stringify'
import remarkFrontmatter from 'remark-frontmatter'
import remarkGfm from 'remark-gfm'
import remarkMath from 'remark-math'
import remarkMdx from 'remark-mdx'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import rehypeComponents from './rehype-components.js'
import rehypeHeadings from './rehype-headings.js'
import rehypeLinks from './rehype-links.js'
import rehypeMath from './rehype-math.js'
import rehypeMathUsage from './rehype-math-usage.js'
import rehypeSanitizePage from './rehype-sanitize-page.js'
import rehypeTaskLists from './rehype-task-lists.js'
import remarkClassNames from './remark-class-names.js'
import remarkCode, { codeHandler } from './remark-code.js'
import remarkCodeComponents from './remark-code-components.js'
import remarkJsxLimit from './remark-jsx-limit.js'
import remarkLatex, { remarkLatexAfterComponents } from './remark-latex.js'
import remarkMarkdownExport, { remarkVerbatimBlocks } from './remark-markdown-export.js'
import remarkMermaid from './remark-mermaid.js'
import remarkNestingLimit from './remark-nesting-limit.js'
import remarkSnippets from './remark-snippets.js'
import remarkStaticMdx from './remark-static-mdx.js'
import remarkUnwrapJsx from './remark-unwrap-jsx.js'

export interface PageProcessorOptions {
  /**
   * Parse JSX and `{expressions}` (default). Off, the page is plain GFM: the fallback for a page
   * whose MDX does not parse, rendered so a deployed site still shows it.
   */
  mdx?: boolean
}

/** KaTeX renders math to static HTML only (the sanitiser keeps no MathML); odd LaTeX is not an error. */
const KATEX_OPTIONS = { output: 'html', strict: 'ignore' } as const

export function createPageProcessor(options: PageProcessorOptions = {}) {
  const base = unified()
    .use(remarkParse)
    .use(remarkNestingLimit)
    .use(remarkFrontmatter, ['yaml'])
    .use(remarkGfm)
    .use(remarkMath)
  const parser = options.mdx === false ? base : base.use(remarkMdx).use(remarkJsxLimit)
  return parser
    .use(remarkVerbatimBlocks)
    .use(remarkUnwrapJsx)
    .use(remarkLatex)
    .use(remarkStaticMdx)
    .use(remarkSnippets)
    .use(remarkCodeComponents)
    .use(remarkLatexAfterComponents)
    .use(remarkMermaid)
    .use(remarkClassNames)
    .use(remarkMarkdownExport)
    .use(remarkCode)
    .use(remarkRehype, {
      passThrough: ['mdxJsxFlowElement', 'mdxJsxTextElement'],
      handlers: { code: codeHandler },
    })
    .use(rehypeMath, KATEX_OPTIONS)
    .use(rehypeMathUsage)
    .use(rehypeComponents)
    .use(rehypeHeadings)
    .use(rehypeLinks)
    .use(rehypeTaskLists)
    .use(rehypeSanitizePage)
    .use(rehypeStringify)
    .freeze()
}

export type PageProcessor = ReturnType<typeof createPageProcessor>
