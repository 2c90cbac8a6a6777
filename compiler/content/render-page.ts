/**
 * One page to HTML: front matter, then the frozen page processor. The result is plain JSON, so the
 * build cache can store it and hand it back on a rebuild instead of rendering again.
 */
import GithubSlugger from 'github-slugger'
import type { ElementContent, Root as HastRoot } from 'hast'
import type { Root as MdastRoot } from 'mdast'
import { VFile } from 'vfile'
import type { ValidationMode } from '../config/types.js'
import { type Diagnostic, sortDiagnostics } from '../diagnostics.js'
import type { SourceFiles } from '../files.js'
import type { Highlighter } from '../highlight/index.js'
import { BlockParseError, fragmentsPath, parseInFragments } from '../openapi/fragments.js'
import { type PageContext, pageDiagnostics, report, type TocEntry } from './context.js'
import { type FrontMatter, readFrontMatter } from './frontmatter.js'
import { parseLongPage, placedOnPage } from './long-page.js'
import { type MdxRepair, repairMdx } from './mdx-repair.js'
import { createPageProcessor, type PageProcessor } from './processor.js'
import { PageLimitError } from './remark-nesting-limit.js'

export interface RenderPageInput {
  /** Source path, e.g. `guide/setup.mdx`. */
  file: string
  /** Page slug, e.g. `guide/setup` (served at `guide/setup/index.html`). */
  slug: string
  source: string
  /** Every source file of the site, for snippets and for checking images. */
  files: SourceFiles
  /** Every page slug of the site, for checking links. */
  pageSlugs: ReadonlySet<string>
  mode: ValidationMode
  highlighter: Highlighter
}

export interface RenderedPage {
  slug: string
  title: string
  description?: string
  /** The validated front matter; `{ title }` only when the page had none usable. */
  frontMatter: FrontMatter
  /** The page body as HTML, every URL relative to the page's own folder. */
  html: string
  toc: TocEntry[]
  /** The `.md` export: the page's Markdown with components reduced to readable text. */
  markdown: string
  /** Plain text, for the search index. */
  text: string
  /** Site paths of the files the page references (images, downloads), to copy into the site. */
  assets: string[]
  /** Icons rendered inline, as `style/name` (`solid/rocket`). */
  icons: string[]
  /** True when the page shows math: its shell links KaTeX's stylesheet. */
  math?: boolean
  /** True when the page has a Mermaid diagram: its shell loads the diagram script. */
  mermaid?: boolean
  /** Class names on the page's HTML elements, sorted: what the site's Tailwind stylesheet is made from. */
  classNames?: string[]
  /** Snippet files read, so the build cache can tell when the page must be rendered again. */
  dependencies: string[]
  diagnostics: Diagnostic[]
}

let mdxProcessor: PageProcessor | undefined
let markdownProcessor: PageProcessor | undefined

export async function renderPage(input: RenderPageInput): Promise<RenderedPage> {
  const frontMatter = readFrontMatter(input.source, input.file, input.mode)
  const freshContext = (): PageContext => ({
    file: input.file,
    slug: input.slug,
    files: input.files,
    pageSlugs: input.pageSlugs,
    mode: input.mode,
    highlighter: input.highlighter,
    scope: new Map(),
    imports: new Map(),
    codeModules: new Map(),
    unknownComponents: new Set(),
    unknownIcons: new Set(),
    diagnostics: [...frontMatter.diagnostics],
    omitted: { warnings: 0, errors: 0 },
    assets: new Set(),
    icons: new Set(),
    classNames: new Set(),
    dependencies: new Set(),
    toc: [],
    markdown: '',
    slugger: new GithubSlugger(),
    counters: new Map(),
  })

  mdxProcessor ??= createPageProcessor()
  let page = freshContext()
  let source = input.source
  const repairs: MdxRepair[] = []
  let error: unknown
  // Each failed parse may be repaired where it stopped; a page needing more repairs than this is not MDX.
  for (let attempt = 0; attempt <= 25; attempt++) {
    page = freshContext()
    for (const repair of repairs) report(page, 'problem', repair.rule, repair.message, repair)
    try {
      return finish(
        await run(mdxProcessor, { ...input, source }, page, input.files.get(fragmentsPath(input.file))),
        page,
      )
    } catch (failure) {
      if (failure instanceof PageLimitError) return refused(failure)
      // Only what the parser said reaches the repairs and the plain Markdown fallback: a failure
      // after parsing (a plugin's, a sandbox's) is reported as itself, never as a syntax error.
      if (!(failure instanceof MdxParseFailure)) return failed(failure)
      error = failure.cause
      const repair = repairMdx(source, failure.cause)
      if (!repair) break
      // Earlier `\<` repairs on the same line pushed this spot one column right each; report the original.
      repair.column -= repairs.filter(
        (earlier) =>
          earlier.rule !== 'html-comment' && earlier.line === repair.line && earlier.column < repair.column,
      ).length
      repairs.push(repair)
      source = repair.source
    }
  }
  // A page that is not valid MDX still renders, as plain Markdown, so a deployed site shows it.
  page = freshContext()
  report(
    page,
    'problem',
    'mdx-syntax',
    `Unexpected MDX syntax: ${errorReason(error)}; the page is rendered as plain Markdown without components`,
    errorPlace(error),
  )
  markdownProcessor ??= createPageProcessor({ mdx: false })
  let rendered: { tree: HastRoot; html: string }
  try {
    rendered = await run(markdownProcessor, input, page)
  } catch (fallbackError) {
    // Not reachable with valid Markdown; kept so one bad page can never take a whole build down.
    report(
      page,
      'error',
      'render-failed',
      `Unexpected failure rendering the page: ${errorReason(fallbackError)}`,
    )
    rendered = { tree: { type: 'root', children: [] }, html: '' }
  }
  return finish(rendered, page)

  /** A page whose render failed after it parsed keeps its front matter and an empty body, with the reason. */
  function failed(failure: unknown): RenderedPage {
    const page = freshContext()
    report(page, 'error', 'render-failed', `Unexpected failure rendering the page: ${errorReason(failure)}`)
    return finish({ tree: { type: 'root', children: [] }, html: '' }, page)
  }

  /** A page beyond a build limit keeps its front matter and an empty body, with the reason. */
  function refused(failure: PageLimitError): RenderedPage {
    const page = freshContext()
    report(page, 'error', 'page-limit', failure.message, failure.place)
    return finish({ tree: { type: 'root', children: [] }, html: '' }, page)
  }

  function finish(rendered: { tree: HastRoot; html: string }, page: PageContext): RenderedPage {
    const data = frontMatter.data ?? { ...frontMatter.partial, title: titleFromSlug(input.slug) }
    const result: RenderedPage = {
      slug: input.slug,
      title: data.title,
      frontMatter: data,
      html: rendered.html,
      toc: page.toc,
      markdown: page.markdown,
      text: plainText(rendered.tree),
      assets: [...page.assets].sort(),
      icons: [...page.icons].sort(),
      dependencies: [...page.dependencies].sort(),
      diagnostics: sortDiagnostics(pageDiagnostics(page)),
    }
    if (data.description !== undefined) result.description = data.description
    if (page.math) result.math = true
    if (page.mermaid) result.mermaid = true
    if (page.classNames.size > 0) result.classNames = [...page.classNames].sort()
    return result
  }
}

async function run(
  processor: PageProcessor,
  input: RenderPageInput,
  page: PageContext,
  fragments?: Uint8Array,
): Promise<{ tree: HastRoot; html: string }> {
  const file = new VFile({ path: input.file, value: input.source, data: { page } })
  let mdast: MdastRoot
  try {
    // A generated API page is parsed block by block, the blocks it shares with other pages once; a long
    // page in groups of blocks, so no one parse holds all its tokens.
    mdast =
      parseInFragments(processor, input.file, input.source, fragments) ??
      parseLongPage(processor, file, input.source) ??
      processor.parse(file)
  } catch (error) {
    if (error instanceof PageLimitError) throw error
    if (error instanceof BlockParseError) {
      if (error.cause instanceof PageLimitError) throw error.cause
      throw new MdxParseFailure(placedOnPage(error))
    }
    throw new MdxParseFailure(error)
  }
  const tree = (await processor.run(mdast, file)) as HastRoot
  return { tree, html: String(processor.stringify(tree, file)) }
}

/** The parser refused the page: the one failure the MDX repairs may answer. */
class MdxParseFailure extends Error {
  constructor(override readonly cause: unknown) {
    super(errorReason(cause))
  }
}

function errorPlace(error: unknown): { line?: number; column?: number } {
  if (error && typeof error === 'object') {
    const { line, column } = error as { line?: unknown; column?: unknown }
    if (typeof line === 'number') return typeof column === 'number' ? { line, column } : { line }
  }
  return {}
}

function errorReason(error: unknown): string {
  if (error && typeof error === 'object' && 'reason' in error && typeof error.reason === 'string')
    return error.reason
  return error instanceof Error ? error.message : String(error)
}

/** `guide/getting-started` → `Getting started`: the title of a page whose front matter has none. */
function titleFromSlug(slug: string): string {
  const last = slug.split('/').pop() ?? slug
  const words = last.replace(/[-_]+/g, ' ').trim()
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Untitled'
}

/** Elements whose text stands on lines of its own in the search text. */
const TEXT_BLOCKS = new Set(
  'p h1 h2 h3 h4 h5 h6 li pre tr div section details summary figure blockquote table aside'.split(' '),
)

/** Readable text of the body for search: no buttons, icons, anchors or hidden labels. */
function plainText(tree: HastRoot): string {
  const parts: string[] = []
  const walk = (nodes: readonly (ElementContent | HastRoot['children'][number])[]): void => {
    for (const node of nodes) {
      if (node.type === 'text') parts.push(node.value)
      else if (node.type === 'element') {
        const classes = node.properties.className
        const skipped =
          node.tagName === 'button' ||
          node.tagName === 'svg' ||
          (Array.isArray(classes) && (classes.includes('d-anchor') || classes.includes('sr-only')))
        if (skipped) continue
        const block = TEXT_BLOCKS.has(node.tagName)
        if (block) parts.push('\n')
        walk(node.children)
        if (block) parts.push('\n')
      }
    }
  }
  walk(tree.children)
  return parts
    .join('')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim()
}
