/**
 * remark plugin: render the elements that use components defined in code (`<CommunityMaintained
 * repo="…"/>`, marked by mdx-static.ts) in the page's sandbox (compiler/sandbox/), and put the element
 * tree they return in their place as ordinary MDX JSX nodes. From there the built-in components, the
 * link checks and the sanitiser treat it exactly like JSX an author wrote in the page.
 *
 * A page without code components never opens a sandbox. A component that throws, loops or allocates
 * without end is a diagnostic at its line and is left out; the rest of the page renders.
 */
import type { Parent, Root, RootContent } from 'mdast'
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx'
import type { VFile } from 'vfile'
import { components } from '../components/index.js'
import { JSX_MARKUP } from '../components/markup.js'
import {
  PageSandbox,
  SANDBOX_MEMORY_BYTES,
  SANDBOX_STEP_LIMIT,
  type SandboxError,
} from '../sandbox/quickjs.js'
import type { CodeComponentRef } from './code-modules.js'
import { type PageContext, type Place, placeOf, report } from './context.js'
import { isPropSlot } from './jsx-prop-slots.js'
import { isJsxElement, type JsxElement } from './mdx-static.js'
import type { StaticObject, StaticValue } from './static-value.js'

/** What a component returns, as the sandbox serialises it (see sandbox/prelude.ts). */
type TreeNode =
  | string
  | { slot: number | string }
  | { name: string; props: StaticObject; children: TreeNode[] }

interface HookWarning {
  component: string
  hook: string
}

type RenderResult =
  | { ok: true; value: { tree: TreeNode[]; warnings: HookWarning[] } }
  | { ok: false; error: SandboxError }

/**
 * Built-in components a code component may return; `Mermaid` becomes a diagram later (remark-mermaid.ts)
 * and `Latex` math (remark-latex.ts).
 */
const BUILTINS = [...components.keys(), 'Latex', 'Mermaid'].sort()

/** Elements that sit inside a line of text; everything else renders as a block. */
const INLINE_NAMES = new Set(
  'a abbr b bdi bdo br cite code data del dfn em i img ins kbd mark q s samp small span strong sub sup time u var wbr Icon Badge Tooltip Link'.split(
    ' ',
  ),
)

export default function remarkCodeComponents() {
  return async (tree: Root, file: VFile): Promise<void> => {
    const page = file.data.page
    if (!page || page.codeModules.size === 0) return
    let sandbox: PageSandbox | undefined
    try {
      await renderIn(tree)
    } finally {
      sandbox?.close()
    }

    async function renderIn(parent: Parent): Promise<void> {
      const children: RootContent[] = []
      for (const child of parent.children) {
        if ('children' in child) await renderIn(child)
        const component = isJsxElement(child) ? child.data?.codeComponent : undefined
        if (component) children.push(...(await render(child as JsxElement, component)))
        else children.push(child)
      }
      parent.children = children
    }

    async function render(element: JsxElement, component: CodeComponentRef): Promise<RootContent[]> {
      const current = page as PageContext
      sandbox ??= await openSandbox(current)
      // A prop written as JSX (jsx-prop-slots.ts) reaches the component as a slot the host fills.
      const slotProps = Object.fromEntries(
        propSlotsOf(element).map((slot, index) => [slot.data?.propSlot, { [PROP_SLOT]: index }]),
      )
      const props = JSON.stringify({ ...element.data?.props, ...slotProps })
      const children = JSON.stringify(contentChildren(element).map(describeChild))
      const call = `__safe(() => __renderComponent(${JSON.stringify(component.file)}, ${JSON.stringify(component.name)}, ${JSON.stringify(props)}, ${JSON.stringify(children)}))`
      const evaluated = sandbox.evaluate(call, 'sandbox:render')
      const result: RenderResult = evaluated.ok ? readResult(evaluated.value) : evaluated
      // An allocation QuickJS refused is caught like any error inside; it is still the memory limit.
      if (!result.ok && result.error.message === 'out of memory') result.error.limit = 'memory'
      const usedAt = placeOf(element)
      const usedIn = component.usedIn ?? current.file
      if (!result.ok) {
        reportFailure(current, element.name ?? component.name, result.error, usedAt, usedIn)
        return []
      }
      for (const warning of result.value.warnings) {
        report(
          current,
          'warning',
          'code-component-hooks',
          `Unexpected React hook ${warning.hook} in <${warning.component}>, expected a component without state: the page is static, so it renders once with the initial state and effects do not run`,
          usedAt,
          usedIn,
        )
      }
      return toMdast(result.value.tree, element.type === 'mdxJsxTextElement', element)
    }
  }
}

/**
 * The sandbox's answer, checked: author code can replace the sandbox's own globals, so its JSON is
 * read as untrusted data (no `__proto__` keys, the expected shape) before anything uses it.
 */
function readResult(json: string): RenderResult {
  const unreadable: RenderResult = {
    ok: false,
    error: {
      name: 'TypeError',
      message: 'the component gave the sandbox an answer it could not read',
      stack: '',
    },
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(json, (key, value) => (key === '__proto__' ? undefined : value))
  } catch {
    return unreadable
  }
  if (typeof parsed !== 'object' || parsed === null) return unreadable
  const result = parsed as RenderResult
  if (result.ok === false && typeof result.error?.message === 'string') return result
  if (result.ok === true && Array.isArray(result.value?.tree) && Array.isArray(result.value.warnings))
    return result
  return unreadable
}

async function openSandbox(page: PageContext): Promise<PageSandbox> {
  const sandbox = await PageSandbox.open(BUILTINS)
  for (const module of page.codeModules.values()) {
    if (module.code === undefined) continue
    // The factory starts on line 1 so the sandbox's stack traces give the source's own lines.
    const defined = sandbox.evaluate(
      `__define(${JSON.stringify(module.file)}, ${JSON.stringify(module.imports)}, function (exports, require, module) {${module.code}\n});`,
      module.file,
    )
    if (!defined.ok) reportFailure(page, undefined, defined.error, undefined, module.file)
  }
  return sandbox
}

/** `10 million`: the step limit as an author reads it. */
const STEP_LIMIT_WORDS = `${SANDBOX_STEP_LIMIT / 1_000_000} million`

function reportFailure(
  page: PageContext,
  name: string | undefined,
  error: SandboxError,
  usedAt: Place | undefined,
  usedIn: string,
): void {
  const where = errorPlace(page, error.stack)
  const subject = name ? `code component <${name}>` : `code in ${usedIn}`
  const limit =
    error.limit === 'steps' ? `${STEP_LIMIT_WORDS} steps` : `${SANDBOX_MEMORY_BYTES / 1024 / 1024} MB`
  // The rule keeps its name from when the budget was a time: filters and CI scripts use it.
  const [rule, message] = error.earlier
    ? [
        `code-component-${error.limit === 'steps' ? 'timeout' : 'memory'}`,
        `Unexpected ${subject} after an earlier one used up this page's sandbox (${limit}), expected the components of one page to fit in it; it is left out`,
      ]
    : error.limit === 'steps'
      ? [
          'code-component-timeout',
          `Unexpected ${subject} still running after ${STEP_LIMIT_WORDS} steps (calls and loop iterations), expected the components of one page to finish within that; it is left out`,
        ]
      : error.limit === 'memory'
        ? [
            'code-component-memory',
            `Unexpected ${subject} using more than ${SANDBOX_MEMORY_BYTES / 1024 / 1024} MB, expected it to build a small element tree; it is left out`,
          ]
        : [
            'code-component-error',
            `Unexpected ${error.name} in ${subject}: ${error.message}; it is left out (components run at build time without browser, Node.js or network APIs)`,
          ]
  report(page, 'problem', rule, message, where?.place ?? usedAt, where?.file ?? usedIn)
}

/** The innermost place in a site file that a sandbox stack trace names (`at X (snippets/x.jsx:3:7)`). */
function errorPlace(page: PageContext, stack: string): { file: string; place: Place } | undefined {
  for (const match of stack.matchAll(/\(([^()\s]+?):(\d+)(?::(\d+))?\)/g)) {
    const file = match[1] ?? ''
    if (!page.codeModules.has(file)) continue
    return { file, place: { line: Number(match[2]), column: Number(match[3] ?? 1) } }
  }
  return undefined
}

/** Marks a prop given to the sandbox that stands for a prop written as JSX: `{ $$propSlot: index }`. */
const PROP_SLOT = '$$propSlot'

const propSlotsOf = (element: JsxElement): JsxElement[] =>
  (element.children as RootContent[]).filter((child): child is JsxElement => isPropSlot(child))

/** The element's children as a component sees them: no blank text, no props written as JSX. */
const contentChildren = (element: JsxElement): RootContent[] =>
  (element.children as RootContent[]).filter(
    (child) => !isPropSlot(child) && !(child.type === 'text' && child.value.trim() === ''),
  )

/** What `children[i].type` and `.props` read in the sandbox: the tag MDX would give the child. */
function describeChild(child: RootContent): { type?: string; props?: StaticObject } {
  if (isJsxElement(child))
    return { ...(child.name ? { type: child.name } : {}), props: child.data?.props ?? {} }
  const tags: Partial<Record<RootContent['type'], string>> = {
    paragraph: 'p',
    blockquote: 'blockquote',
    code: 'pre',
    table: 'table',
    thematicBreak: 'hr',
    image: 'img',
    link: 'a',
    emphasis: 'em',
    strong: 'strong',
    inlineCode: 'code',
  }
  if (child.type === 'heading') return { type: `h${child.depth}`, props: {} }
  if (child.type === 'list') return { type: child.ordered ? 'ol' : 'ul', props: {} }
  const type = tags[child.type]
  return type ? { type, props: {} } : { props: {} }
}

/** The returned element tree as MDX JSX nodes, with the usage's children where `children` went. */
function toMdast(nodes: readonly TreeNode[], inline: boolean, usage: JsxElement): RootContent[] {
  // `<Latex>` in a line of text is inline math; on its own, a block.
  const inText = nodes.some((node) => typeof node === 'string' && node.trim() !== '')
  return nodes.flatMap((node): RootContent[] => {
    if (typeof node === 'string') return [{ type: 'text', value: node, position: usage.position }]
    if (typeof node !== 'object' || node === null) return []
    if ('slot' in node && typeof node.slot === 'string') {
      const slot = propSlotsOf(usage)[Number(node.slot.slice(1))]
      return slot ? (structuredClone(slot.children) as RootContent[]) : []
    }
    if ('slot' in node) {
      const child = contentChildren(usage)[node.slot as number]
      const copy = child ? [structuredClone(child)] : []
      const [only] = copy
      return inline && copy.length === 1 && only?.type === 'paragraph' ? only.children : copy
    }
    if (!('name' in node) || !Array.isArray(node.children)) return []
    const childInline = inline || INLINE_NAMES.has(node.name) || (node.name === 'Latex' && inText)
    const children = toMdast(node.children, childInline, usage)
    if (typeof node.name !== 'string' || !/^[A-Za-z][\w.:-]*$/.test(node.name)) return children
    const element = {
      type: childInline ? 'mdxJsxTextElement' : 'mdxJsxFlowElement',
      name: node.name,
      attributes: [],
      children: [...propSlots(node.props, usage), ...children],
      data: { props: readProps(node.props) },
      position: usage.position,
    } as MdxJsxFlowElement | MdxJsxTextElement
    return [element as RootContent]
  })
}

/**
 * Props given an element (`title={<Badge>New</Badge>}`) as children marked with the prop's name, so
 * components in them render like the page's own (see jsx-prop-slots.ts).
 */
function propSlots(value: StaticValue, usage: JsxElement): MdxJsxTextElement[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return []
  return Object.entries(value).flatMap(([key, raw]): MdxJsxTextElement[] =>
    isTree(raw)
      ? [
          {
            type: 'mdxJsxTextElement',
            name: null,
            attributes: [],
            children: toMdast(raw.$$tree as TreeNode[], true, usage) as MdxJsxTextElement['children'],
            data: { propSlot: key },
            ...(usage.position ? { position: usage.position } : {}),
          },
        ]
      : [],
  )
}

const isTree = (value: StaticValue): value is StaticObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Array.isArray(value.$$tree)

/** Props as static values; an element given inside a list or object becomes markup data. */
function readProps(value: StaticValue, top = true): StaticObject {
  const props: StaticObject = {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return props
  for (const [key, raw] of Object.entries(value)) {
    // A top-level element prop is a slot (propSlots); nested ones stay markup.
    if (!(top && isTree(raw))) props[key] = readValue(raw)
  }
  return props
}

function readValue(value: StaticValue): StaticValue {
  if (Array.isArray(value)) return value.map(readValue)
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value.$$tree)) return toMarkup(value.$$tree as TreeNode[])
  return readProps(value, false)
}

function toMarkup(nodes: readonly TreeNode[]): StaticValue {
  const children = nodes.map((node): StaticValue => {
    if (typeof node === 'string') return node
    if ('slot' in node) return null
    return {
      [JSX_MARKUP]: true,
      tagName: /^[a-z][\w-]*$/.test(node.name) ? node.name : null,
      properties: readProps(node.props, false),
      children: (toMarkup(node.children) as StaticObject).children ?? [],
    }
  })
  const [only] = children
  if (children.length === 1 && typeof only === 'object') return only
  return { [JSX_MARKUP]: true, tagName: null, properties: {}, children }
}
