/**
 * Snippet files as trees: parsed with the page's own frozen processor (so snippets get the same MDX
 * and GFM syntax), front matter dropped, and recorded as dependencies of the page for the build cache.
 */
import type { Program } from 'estree'
import type { Root } from 'mdast'
import type { MdxjsEsm } from 'mdast-util-mdxjs-esm'
import { decodeUtf8 } from '../files.js'
import { codeComponentRef, codeSourceOf, esmSource, registerCodeModule } from './code-modules.js'
import type { PageContext } from './context.js'
import { evaluateExportConsts, type StaticValue } from './static-value.js'

/** The part of a unified processor that snippets need. */
export interface SnippetParser {
  parse(text: string): unknown
}

export function parseSnippet(parser: SnippetParser, page: PageContext, path: string): Root | undefined {
  const bytes = page.files.get(path)
  if (!bytes) return undefined
  page.dependencies.add(path)
  const text = decodeUtf8(bytes)
  if (text === undefined) return undefined
  const tree = parser.parse(text) as Root
  tree.children = tree.children.filter((node) => node.type !== 'yaml')
  return tree
}

/** The literal `export const`s of a snippet, and its components defined in code, for `import { name } from '/snippets/x.mdx'`. */
export function snippetExports(
  parser: SnippetParser,
  page: PageContext,
  path: string,
): Map<string, StaticValue> | undefined {
  let tree: Root | undefined
  try {
    tree = parseSnippet(parser, page, path)
  } catch {
    return undefined
  }
  if (!tree) return undefined
  const scope = new Map<string, StaticValue>()
  const esm = tree.children.filter((node): node is MdxjsEsm => node.type === 'mdxjsEsm')
  const components: string[] = []
  for (const node of esm) {
    const program = node.data?.estree as Program | null | undefined
    // Problems in the snippet itself are reported where it is inlined, not here.
    if (program) evaluateExportConsts(program, scope, () => {})
    for (const statement of program?.body ?? []) {
      if (statement.type !== 'ExportNamedDeclaration') continue
      const declaration = statement.declaration
      if (declaration?.type === 'FunctionDeclaration') components.push(declaration.id.name)
      if (declaration?.type !== 'VariableDeclaration') continue
      for (const declarator of declaration.declarations) {
        if (declarator.id.type === 'Identifier' && !scope.has(declarator.id.name))
          components.push(declarator.id.name)
      }
    }
  }
  if (components.length > 0) {
    for (const name of components) scope.set(name, codeComponentRef(path, name))
    registerCodeModule(page, path, esmSource(esm), (other) => readCode(parser, page, other))
  }
  return scope
}

/** The ESM source of a code module at `path`, for the sandbox: a `.jsx` file whole, an `.mdx` file's ESM. */
export function readCode(parser: SnippetParser, page: PageContext, path: string): string | undefined {
  return codeSourceOf(page, path, (text) =>
    (parser.parse(text) as Root).children.filter((node): node is MdxjsEsm => node.type === 'mdxjsEsm'),
  )
}
