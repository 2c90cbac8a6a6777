/**
 * Reads the MDX of a page or snippet as data: ESM lines become scope bindings and snippet imports,
 * `{expressions}` become text (or vanish when they are comments), and JSX attributes become a plain
 * props object on the element (`data.props`). Nothing is executed; whatever is not static is reported
 * at its place and left out. Components defined in code are the exception: their ESM becomes a code
 * module (code-modules.ts) and elements that use them are marked (`data.codeComponent`) for the
 * sandbox (remark-code-components.ts).
 */
import type { Node as EstreeNode, Program, VariableDeclarator } from 'estree'
import type { Nodes, Parent, Root, RootContent } from 'mdast'
import type {} from 'mdast-util-mdx-expression'
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx'
import type { MdxjsEsm } from 'mdast-util-mdxjs-esm'
import {
  CODE_FILE,
  type CodeComponentRef,
  codeComponentRef,
  esmSource,
  isCodeComponentRef,
  registerCodeModule,
} from './code-modules.js'
import { estreePlace, type PageContext, placeOf, report } from './context.js'
import { isJsxValue, propSlot } from './jsx-prop-slots.js'
import { resolveModulePath, resolveSnippetPath, withImportExtension } from './snippet-paths.js'
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
    /** The component defined in code that this element uses, rendered in the sandbox. */
    codeComponent?: CodeComponentRef
  }
  interface MdxJsxTextElementData {
    props?: StaticObject
    codeComponent?: CodeComponentRef
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
  /** The ESM source of a code module file (`.jsx` whole, `.mdx` its ESM blocks), for the sandbox. */
  readCode: (path: string) => string | undefined
}

/** What the ESM of one file defines in code, and the refusals that stand only if it defines none. */
interface CodeFound {
  defined: boolean
  refusals: (() => void)[]
  /** Names imported from files that are missing: that file is their one problem, reported at the import. */
  missing: Set<string>
}

/** Whether a refused expression is a use of a name from a missing file (`rows()`, `rows.all`). */
function usesMissingImport(node: EstreeNode, missing: ReadonlySet<string>): boolean {
  let target: EstreeNode = node
  if (target.type === 'CallExpression') target = target.callee
  while (target.type === 'MemberExpression') target = target.object
  return target.type === 'Identifier' && missing.has(target.name)
}

export const isJsxElement = (node: Nodes): node is JsxElement =>
  node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement'

export function resolveStaticMdx(tree: Root, options: StaticMdxOptions): void {
  const { page, file, scope } = options
  const code: CodeFound = { defined: false, refusals: [], missing: new Set() }
  const refuse = (node: EstreeNode, reason: string, fallback?: Nodes): void => {
    if (usesMissingImport(node, code.missing)) return
    report(
      page,
      'problem',
      'non-static-expression',
      `Unexpected ${reason} in MDX, expected a literal, a list or object of literals, or a name from \`export const\`; author code does not run${page.mode === 'lenient' ? ' (left out)' : ''}`,
      estreePlace(node) ?? (fallback ? placeOf(fallback) : undefined),
      file,
    )
  }

  // ESM first: `export const` lines may sit below the expressions that use them.
  const esm: MdxjsEsm[] = []
  removeChildren(tree, (node) => {
    if (node.type !== 'mdxjsEsm') return false
    esm.push(node)
    return true
  })
  for (const node of esm) readEsm(node, options, refuse, code)
  // Helpers beside components run with them in the sandbox; alone, they are refused as before.
  if (code.defined) registerCodeModule(page, file, esmSource(esm), options.readCode)
  else for (const refusal of code.refusals) refusal()

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
    const slots: MdxJsxTextElement[] = []
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
        const [statement] = program.body
        const expression = statement?.type === 'ExpressionStatement' ? statement.expression : undefined
        if (isJsxValue(expression)) {
          slots.push(propSlot(attribute.name, expression, element.position))
          // Plain markup (`icon={<svg/>}`) also stays a value, for a code component to pass on.
          const markup = evaluateProgram(program, scope)
          if (markup.ok) props[attribute.name] = markup.value
          continue
        }
        const result = evaluateProgram(program, scope)
        if (result.ok) props[attribute.name] = result.value
        else refuse(result.node, result.reason, element)
      }
    }
    element.data = { ...element.data, props }
    if (slots.length > 0) element.children = [...slots, ...element.children] as JsxElement['children']
    const bound = element.name ? scope.get(element.name) : undefined
    if (isCodeComponentRef(bound)) element.data.codeComponent = { ...bound, usedIn: file }
    // The estree is no longer needed; dropping it keeps later tree copies small.
    element.attributes = []
  }
}

function readEsm(
  node: MdxjsEsm,
  options: StaticMdxOptions,
  refuse: (node: EstreeNode, reason: string, fallback?: Nodes) => void,
  code: CodeFound,
): void {
  const program = node.data?.estree as Program | null | undefined
  if (!program) return
  const { page, file, scope, imports } = options
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      const source = withImportExtension(String(statement.source.value), file, (path) => page.files.has(path))
      if (CODE_FILE.test(source) && readCodeImport(statement, source, options, code.missing)) continue
      const path = resolveSnippetPath(source, file)
      if (!path) {
        const refuseImport = () =>
          report(
            page,
            'problem',
            'import-not-allowed',
            `Unexpected import of "${source}", expected a file inside the site (\`/snippets/x.mdx\`, \`/components/x.jsx\` or a relative path); other imports are not run`,
            estreePlace(statement) ?? placeOf(node),
            file,
          )
        // With components in the file, its code module reports imports (and gives them React's hooks).
        code.refusals.push(refuseImport)
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
      statement.declaration?.type === 'FunctionDeclaration'
    ) {
      const name = statement.declaration.id.name
      scope.set(name, codeComponentRef(file, name))
      code.defined = true
      continue
    }
    if (
      statement.type === 'ExportNamedDeclaration' &&
      statement.declaration?.type === 'VariableDeclaration'
    ) {
      const declaration = statement.declaration
      const values: VariableDeclarator[] = []
      for (const declarator of declaration.declarations) {
        if (declarator.id.type === 'Identifier' && isComponentCode(declarator.init)) {
          scope.set(declarator.id.name, codeComponentRef(file, declarator.id.name))
          code.defined = true
        } else values.push(declarator)
      }
      if (values.length === 0) continue
      const rest = { ...statement, declaration: { ...declaration, declarations: values } }
      evaluateExportConsts({ ...program, body: [rest] }, scope, (refused, reason) =>
        code.refusals.push(() => refuse(refused, reason, node)),
      )
      continue
    }
    if (
      statement.type === 'VariableDeclaration' ||
      statement.type === 'FunctionDeclaration' ||
      statement.type === 'ClassDeclaration'
    ) {
      code.refusals.push(() => refuse(statement, 'statement', node))
      continue
    }
    refuse(statement, statement.type === 'ExportDefaultDeclaration' ? '`export default`' : 'statement', node)
  }
}

/** `() => <div/>`, `function () {}`, or a wrapper call around one (`memo(() => …)`): a component. */
function isComponentCode(init: VariableDeclarator['init']): boolean {
  if (!init) return false
  if (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression') return true
  return (
    init.type === 'CallExpression' &&
    init.arguments.some(
      (argument) => argument.type === 'ArrowFunctionExpression' || argument.type === 'FunctionExpression',
    )
  )
}

/** `import { X } from '/snippets/x.jsx'`: bind each name to the code module's export. */
function readCodeImport(
  statement: Extract<Program['body'][number], { type: 'ImportDeclaration' }>,
  source: string,
  options: StaticMdxOptions,
  missing: Set<string>,
): boolean {
  const { page, file, scope } = options
  const path = resolveModulePath(source, file)
  if (!path) return false
  const text = options.readCode(path)
  if (text === undefined) {
    report(
      page,
      'problem',
      'missing-snippet',
      `Unexpected import of missing file "${source}", expected a file at ${path}`,
      estreePlace(statement),
      file,
    )
    // Its components are not unknown: the missing file is the one problem, reported here once.
    for (const specifier of statement.specifiers) {
      page.unknownComponents.add(specifier.local.name)
      missing.add(specifier.local.name)
    }
    return true
  }
  registerCodeModule(page, path, text, options.readCode)
  for (const specifier of statement.specifiers) {
    if (specifier.type === 'ImportNamespaceSpecifier') continue
    const name = specifier.type === 'ImportDefaultSpecifier' ? 'default' : importedName(specifier.imported)
    scope.set(specifier.local.name, codeComponentRef(path, name))
  }
  return true
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
