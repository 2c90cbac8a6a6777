/**
 * Reads the MDX of a page or snippet as data: ESM lines become scope bindings and snippet imports,
 * `{expressions}` become text (or vanish when they are comments), and JSX attributes become a plain
 * props object on the element (`data.props`). Nothing is executed; whatever is not static is reported
 * at its place and left out.
 */
import type { Node as EstreeNode, Program } from 'estree'
import type { Nodes, Parent, Root, RootContent } from 'mdast'
import type {} from 'mdast-util-mdx-expression'
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx'
import type { MdxjsEsm } from 'mdast-util-mdxjs-esm'
import { estreePlace, type PageContext, placeOf, report } from './context.js'
import { resolveSnippetPath } from './snippet-paths.js'
import {
  evaluateExportConsts,
  evaluateExpression,
  evaluateProgram,
  type StaticObject,
  type StaticValue,
} from './static-value.js'

declare module 'mdast-util-mdx-jsx' {
  interface MdxJsxFlowElementData {
    /** The element's attributes, read as static values. */
    props?: StaticObject
  }
  interface MdxJsxTextElementData {
    props?: StaticObject
  }
  interface MdxJsxFlowElementHastData {
    props?: StaticObject
  }
  interface MdxJsxTextElementHastData {
    props?: StaticObject
  }
}

export type JsxElement = MdxJsxFlowElement | MdxJsxTextElement

export interface StaticMdxOptions {
  page: PageContext
  /** The file this tree came from (the page, or a snippet), for diagnostics and relative imports. */
  file: string
  /** Bindings visible to expressions: snippet props, then the file's own `export const`s. */
  scope: Map<string, StaticValue>
  /** Receives `import X from '…'` of snippet files: local name → snippet path. */
  imports: Map<string, string>
  /** Reads the `export const`s of another snippet, for `import { name } from '/snippets/x.mdx'`. */
  snippetExports: (path: string) => Map<string, StaticValue> | undefined
}

export const isJsxElement = (node: Nodes): node is JsxElement =>
  node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement'

export function resolveStaticMdx(tree: Root, options: StaticMdxOptions): void {
  const { page, file, scope } = options
  const refuse = (node: EstreeNode, reason: string, fallback?: Nodes): void =>
    report(
      page,
      'problem',
      'non-static-expression',
      `Unexpected ${reason} in MDX, expected a literal, a list or object of literals, or a name from \`export const\`; author code does not run${page.mode === 'lenient' ? ' (left out)' : ''}`,
      estreePlace(node) ?? (fallback ? placeOf(fallback) : undefined),
      file,
    )

  // ESM first: `export const` lines may sit below the expressions that use them.
  removeChildren(tree, (node) => {
    if (node.type !== 'mdxjsEsm') return false
    readEsm(node, options, refuse)
    return true
  })

  walk(tree)

  function walk(parent: Parent): void {
    const children: RootContent[] = []
    for (const child of parent.children) {
      if (child.type === 'mdxFlowExpression' || child.type === 'mdxTextExpression') {
        const program = child.data?.estree as Program | null | undefined
        if (!program) continue
        const result = evaluateProgram(program, scope)
        if (!result.ok) {
          refuse(result.node, result.reason, child)
          continue
        }
        const text = textOf(result.value)
        if (text === undefined) {
          refuse(program, 'list or object shown as text', child)
          continue
        }
        if (text === '') continue
        const value = { type: 'text' as const, value: text }
        children.push(
          (child.type === 'mdxFlowExpression'
            ? { type: 'paragraph', children: [value] }
            : value) as RootContent,
        )
        continue
      }
      if (isJsxElement(child)) readAttributes(child)
      if ('children' in child) walk(child)
      children.push(child)
    }
    parent.children = children
  }

  function readAttributes(element: JsxElement): void {
    const props: StaticObject = {}
    for (const attribute of element.attributes) {
      if (attribute.type === 'mdxJsxExpressionAttribute') {
        const program = attribute.data?.estree as Program | null | undefined
        const spread = program?.body[0]
        if (spread?.type === 'ExpressionStatement' && spread.expression.type === 'ObjectExpression') {
          const result = evaluateExpression(spread.expression, scope)
          if (result.ok && typeof result.value === 'object' && result.value && !Array.isArray(result.value)) {
            Object.assign(props, result.value)
          } else if (!result.ok) refuse(result.node, result.reason, element)
        } else if (program) refuse(program, 'attribute spread', element)
        continue
      }
      if (attribute.value === null || attribute.value === undefined) props[attribute.name] = true
      else if (typeof attribute.value === 'string') props[attribute.name] = attribute.value
      else {
        const program = attribute.value.data?.estree as Program | null | undefined
        if (!program) continue
        const result = evaluateProgram(program, scope)
        if (result.ok) props[attribute.name] = result.value
        else refuse(result.node, result.reason, element)
      }
    }
    element.data = { ...element.data, props }
    // The estree is no longer needed; dropping it keeps later tree copies small.
    element.attributes = []
  }
}

function readEsm(
  node: MdxjsEsm,
  options: StaticMdxOptions,
  refuse: (node: EstreeNode, reason: string, fallback?: Nodes) => void,
): void {
  const program = node.data?.estree as Program | null | undefined
  if (!program) return
  const { page, file, scope, imports } = options
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      const source = String(statement.source.value)
      const path = resolveSnippetPath(source, file)
      if (!path) {
        report(
          page,
          'problem',
          'import-not-allowed',
          `Unexpected import of "${source}", expected a snippet inside the site (\`/snippets/….mdx\` or a relative \`.mdx\` file); other imports are not run`,
          estreePlace(statement) ?? placeOf(node),
          file,
        )
        continue
      }
      for (const specifier of statement.specifiers) {
        if (specifier.type === 'ImportDefaultSpecifier') imports.set(specifier.local.name, path)
        else {
          const exports = options.snippetExports(path)
          if (!exports) {
            report(
              page,
              'problem',
              'missing-snippet',
              `Unexpected import of missing snippet "${source}", expected a file at ${path}`,
              estreePlace(statement),
              file,
            )
            break
          }
          const name = specifier.type === 'ImportSpecifier' ? importedName(specifier.imported) : undefined
          if (name === undefined) {
            scope.set(specifier.local.name, Object.fromEntries(exports) as StaticObject)
          } else if (exports.has(name)) scope.set(specifier.local.name, exports.get(name))
          else {
            report(
              page,
              'problem',
              'missing-export',
              `Unexpected import of "${name}", expected one of the snippet's \`export const\`s (${[...exports.keys()].join(', ') || 'none'})`,
              estreePlace(specifier),
              file,
            )
          }
        }
      }
      continue
    }
    if (
      statement.type === 'ExportNamedDeclaration' &&
      statement.declaration?.type === 'VariableDeclaration'
    ) {
      evaluateExportConsts({ ...program, body: [statement] }, scope, refuse)
      continue
    }
    refuse(statement, statement.type === 'ExportDefaultDeclaration' ? '`export default`' : 'statement', node)
  }
}

const importedName = (node: { type: string; name?: string; value?: unknown }): string =>
  node.type === 'Identifier' ? String(node.name) : String(node.value)

/** Text for a value shown in content: `undefined` for lists and objects, which have no text. */
function textOf(value: StaticValue): string | undefined {
  if (value === undefined || value === null || value === false || value === true) return ''
  if (typeof value === 'object') return undefined
  return String(value)
}

/** Remove, at any depth, the children that `drop` selects (after it has seen them). */
function removeChildren(parent: Parent, drop: (node: RootContent) => boolean): void {
  parent.children = parent.children.filter((child) => {
    if (drop(child)) return false
    if ('children' in child) removeChildren(child, drop)
    return true
  })
}
