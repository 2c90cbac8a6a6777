/**
 * remark plugin: read the page's MDX as data (see mdx-static.ts). Its `export const`s and snippet
 * imports land in `file.data.page`, where remark-snippets picks them up.
 */
import type { Root } from 'mdast'
import type { VFile } from 'vfile'
import { resolveStaticMdx } from './mdx-static.js'
import { readCode, type SnippetParser, snippetExports } from './snippet-source.js'

export default function remarkStaticMdx(this: SnippetParser) {
  return (tree: Root, file: VFile): void => {
    const page = file.data.page
    if (!page) return
    resolveStaticMdx(tree, {
      page,
      file: page.file,
      scope: page.scope,
      imports: page.imports,
      snippetExports: (path) => snippetExports(this, page, path),
      readCode: (path) => readCode(this, page, path),
    })
  }
}
