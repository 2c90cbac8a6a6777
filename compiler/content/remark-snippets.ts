/**
 * remark plugin: inline snippets. `<Snippet file="x.mdx" />` reads `snippets/x.mdx`; an imported
 * `<Name prop="…" />` reads the file its `import` named. Each snippet is read as static MDX with its
 * props in scope, then its own snippets are inlined in turn; a snippet that reaches itself again is an
 * error instead of a hang.
 */
import type { Parent, Root, RootContent } from 'mdast'
import type { VFile } from 'vfile'
import { type PageContext, placeOf, report } from './context.js'
import { isJsxElement, type JsxElement, resolveStaticMdx } from './mdx-static.js'
import { PageLimitError } from './remark-nesting-limit.js'
import { snippetFilePath } from './snippet-paths.js'
import { parseSnippet, readCode, type SnippetParser, snippetExports } from './snippet-source.js'
import type { StaticValue } from './static-value.js'

/**
 * Snippets that include a snippet several times grow exponentially without a cycle (four copies of
 * four copies…): a kilobyte of upload could hold a build forever. No real page comes near this.
 */
export const MAX_SNIPPET_EXPANSIONS = 500

/**
 * Bytes of snippet source one page may inline, counting each inclusion: a 2 MB snippet included 500
 * times is a gigabyte to parse. Real pages inline a few kilobytes.
 */
export const MAX_SNIPPET_BYTES = 1024 * 1024

export default function remarkSnippets(this: SnippetParser) {
  const parser = this
  return (tree: Root, file: VFile): void => {
    const page = file.data.page
    if (!page) return
    let expansions = 0
    let inlinedBytes = 0
    inlineSnippets(tree, page.file, page.imports, [page.file])

    function inlineSnippets(
      parent: Parent,
      fromFile: string,
      imports: Map<string, string>,
      stack: string[],
    ): void {
      parent.children = parent.children.flatMap((child): RootContent[] => {
        if (isJsxElement(child)) {
          const path = snippetPathOf(child, imports, page as PageContext, fromFile)
          if (path !== undefined) return path ? expand(child, path, fromFile, stack) : []
        }
        if ('children' in child) inlineSnippets(child, fromFile, imports, stack)
        return [child]
      })
    }

    function expand(element: JsxElement, path: string, fromFile: string, stack: string[]): RootContent[] {
      const place = placeOf(element)
      expansions++
      if (expansions > MAX_SNIPPET_EXPANSIONS) {
        if (expansions === MAX_SNIPPET_EXPANSIONS + 1) {
          report(
            page as PageContext,
            'error',
            'snippet-limit',
            `Unexpected ${MAX_SNIPPET_EXPANSIONS + 1}th snippet on one page, expected at most ${MAX_SNIPPET_EXPANSIONS} (snippets that include snippets several times multiply)`,
            place,
            fromFile,
          )
        }
        return []
      }
      if (stack.includes(path)) {
        report(
          page as PageContext,
          'error',
          'snippet-cycle',
          `Unexpected snippet cycle ${[...stack, path].join(' → ')}, expected a snippet not to include itself`,
          place,
          fromFile,
        )
        return []
      }
      if (inlinedBytes > MAX_SNIPPET_BYTES) return []
      inlinedBytes += page?.files.get(path)?.byteLength ?? 0
      if (inlinedBytes > MAX_SNIPPET_BYTES) {
        report(
          page as PageContext,
          'error',
          'snippet-limit',
          `Unexpected ${inlinedBytes} bytes of snippets on one page at ${path}, expected at most ${MAX_SNIPPET_BYTES} (count each inclusion); the snippet is left out`,
          place,
          fromFile,
        )
        return []
      }
      let snippet: Root | undefined
      try {
        snippet = parseSnippet(parser, page as PageContext, path)
      } catch (error) {
        if (error instanceof PageLimitError) {
          report(page as PageContext, 'error', 'page-limit', `${path}: ${error.message}`, place, fromFile)
          return []
        }
        report(
          page as PageContext,
          'problem',
          'snippet-syntax',
          `Unexpected MDX in snippet ${path}: ${error instanceof Error ? error.message : String(error)}`,
          place,
          fromFile,
        )
        return []
      }
      if (!snippet) {
        report(
          page as PageContext,
          'problem',
          'missing-snippet',
          `Unexpected snippet "${path}", expected a UTF-8 file at that path in the site`,
          place,
          fromFile,
        )
        return []
      }
      insertChildren(snippet, element.children as RootContent[])
      const props = element.data?.props ?? {}
      const scope = new Map<string, StaticValue>(Object.entries(props))
      scope.set('props', props)
      const imports = new Map<string, string>()
      resolveStaticMdx(snippet, {
        page: page as PageContext,
        file: path,
        scope,
        imports,
        snippetExports: (other) => snippetExports(parser, page as PageContext, other),
        readCode: (other) => readCode(parser, page as PageContext, other),
      })
      inlineSnippets(snippet, path, imports, [...stack, path])
      const [only] = snippet.children
      if (
        element.type === 'mdxJsxTextElement' &&
        snippet.children.length === 1 &&
        only?.type === 'paragraph'
      ) {
        return only.children
      }
      return snippet.children
    }
  }
}

/** The snippet an element stands for: a path, `''` for a `<Snippet>` with a bad `file`, or `undefined`. */
function snippetPathOf(
  element: JsxElement,
  imports: Map<string, string>,
  page: PageContext,
  fromFile: string,
): string | undefined {
  if (element.name === 'Snippet') {
    const file = element.data?.props?.file
    const path =
      typeof file === 'string' ? snippetFilePath(file, (candidate) => page.files.has(candidate)) : undefined
    if (!path) {
      report(
        page,
        'problem',
        'missing-snippet',
        `Unexpected <Snippet file=${JSON.stringify(file ?? null)}>, expected file="name.mdx" naming a file in snippets/`,
        placeOf(element),
        fromFile,
      )
      return ''
    }
    return path
  }
  return element.name ? imports.get(element.name) : undefined
}

/** `{children}` (or `{props.children}`) in a snippet stands for the content written inside its element. */
function insertChildren(parent: Parent, children: readonly RootContent[]): void {
  parent.children = parent.children.flatMap((child): RootContent[] => {
    if (
      (child.type === 'mdxFlowExpression' || child.type === 'mdxTextExpression') &&
      /^\s*(props\.)?children\s*$/.test(child.value)
    ) {
      const copy = structuredClone(children) as RootContent[]
      const [only] = copy
      if (child.type === 'mdxTextExpression' && copy.length === 1 && only?.type === 'paragraph')
        return only.children
      return copy
    }
    if ('children' in child) insertChildren(child, children)
    return [child]
  })
}
