/**
 * remark plugin: the page's `.md` export, for readers and LLMs that want plain Markdown. It serialises
 * a copy of the tree after snippets and expressions are resolved, with every component reduced to
 * readable Markdown: its title in bold, then its content. A block with no MDX in it that starts its
 * line (marked by `remarkVerbatimBlocks` as parsed) is the author's own text: it is exported as
 * written, which is faithful and costs nothing, and only the rest is serialised.
 */
import type { BlockContent, Link, Paragraph, PhrasingContent, Root, RootContent } from 'mdast'
import type { Options as ToMarkdownOptions } from 'mdast-util-to-markdown'
import type { VFile } from 'vfile'
import { isPropSlot } from './jsx-prop-slots.js'
import { toMarkdownNarrowed } from './markdown-escapes.js'
import { isJsxElement, type JsxElement } from './mdx-static.js'
import type { StaticObject, StaticValue } from './static-value.js'

interface DataReader {
  data(key: 'toMarkdownExtensions'): ToMarkdownOptions['extensions']
}

/** Callout-like components and the word that introduces their text. */
const CALLOUT_LABELS: Record<string, string> = {
  Note: 'Note',
  Info: 'Info',
  Tip: 'Tip',
  Warning: 'Warning',
  Check: 'Check',
  Danger: 'Danger',
}

/** Props that name a component, in the order they are looked for. */
const LABEL_PROPS = ['title', 'label', 'name', 'path', 'query', 'body', 'header', 'cookie', 'field']

/** Blocks as parsed that the export takes as written, with their text (see `remarkVerbatimBlocks`). */
const verbatim = new WeakMap<RootContent, string>()
/** The `html` nodes standing for such blocks in the export's copy (blocks, not phrasing): their type. */
const writtenBlocks = new WeakMap<RootContent, RootContent['type']>()

/**
 * remark plugin, first after the parse: mark the blocks the export can copy from the source. Such a
 * block holds no MDX (no component, expression or import: those are reduced or resolved), is not
 * indented code (which, copied after a list, would join the list), and has only spaces before it on
 * its line: at the top level, or inside components, where it is copied without the indent its
 * component gave it. Marked now, before any plugin moves or inserts nodes: a snippet's blocks, whose
 * positions are in another file, are never marked.
 */
export function remarkVerbatimBlocks() {
  return (tree: Root, file: VFile): void => {
    if (file.data.page && typeof file.value === 'string') markVerbatim(tree.children, file.value)
  }
}

function markVerbatim(nodes: readonly RootContent[], source: string): void {
  for (const node of nodes) {
    if (node.type === 'mdxJsxFlowElement') {
      markVerbatim(node.children, source)
      continue
    }
    const { start, end } = node.position ?? {}
    if (start?.offset === undefined || end?.offset === undefined || node.type === 'yaml') continue
    if (/\s/.test(source.charAt(start.offset)) || holdsMdx(node)) continue
    const text = asWritten(source, start.offset, end.offset)
    if (text !== undefined) verbatim.set(node, text)
  }
}

/**
 * The source of a block from `start` to `end`, without the indent of its first line, or `undefined`
 * when something other than spaces comes before it on that line (a list marker, `>`, a tag) or a later
 * line is indented less (lazy continuation): such a block cannot be copied on its own.
 */
function asWritten(source: string, start: number, end: number): string | undefined {
  const lineStart = source.lastIndexOf('\n', start - 1) + 1
  const indent = start - lineStart
  if (indent === 0) return source.slice(start, end)
  if (!/^ +$/.test(source.slice(lineStart, start))) return undefined
  const lines = source.slice(lineStart, end).split('\n')
  const dedented: string[] = []
  for (const line of lines) {
    if (line.trim() === '') dedented.push('')
    else if (/^ *$/.test(line.slice(0, indent))) dedented.push(line.slice(indent))
    else return undefined
  }
  return dedented.join('\n')
}

const holdsMdx = (node: RootContent): boolean =>
  node.type.startsWith('mdx') || ('children' in node && node.children.some(holdsMdx))

export default function remarkMarkdownExport(this: DataReader) {
  return (tree: Root, file: VFile): void => {
    const page = file.data.page
    if (!page) return
    // reduceAll copies every parent it passes, so the tree the HTML is made from stays untouched.
    const copy: Root = { ...tree, children: reduceAll(tree.children.filter((node) => node.type !== 'yaml')) }
    page.markdown = toMarkdownNarrowed(copy, {
      extensions: this.data('toMarkdownExtensions') ?? [],
      bullet: '-',
      emphasis: '_',
      rule: '-',
    })
  }
}

function reduceAll(nodes: RootContent[]): RootContent[] {
  return nodes.flatMap((node) => {
    if (isJsxElement(node)) return reduce(node)
    const written = writtenBlock(node)
    if (written) return [written]
    if ('children' in node) return [{ ...node, children: reduceAll(node.children) } as RootContent]
    return [node]
  })
}

/** A marked block as an `html` node, whose value is written out as it is: exactly as the author wrote it. */
function writtenBlock(node: RootContent): RootContent | undefined {
  const value = verbatim.get(node)
  if (value === undefined) return undefined
  const block: RootContent = { type: 'html', value }
  writtenBlocks.set(block, node.type)
  return block
}

function reduce(element: JsxElement): RootContent[] {
  const name = element.name ?? ''
  // Props written as JSX (jsx-prop-slots.ts) are phrasing; the label below reads them as such.
  const slots = new Map<string, PhrasingContent[]>()
  for (const child of element.children) {
    if (isJsxElement(child) && child.data?.propSlot !== undefined)
      slots.set(child.data.propSlot, reduceAll(child.children) as PhrasingContent[])
  }
  const props = element.data?.props ?? {}
  const reduced = reduceAll(element.children.filter((child) => !isPropSlot(child)))
  const children = element.type === 'mdxJsxFlowElement' ? asBlocks(reduced) : reduced
  if (name === 'Visibility' && props.for === 'humans') return []
  if (element.type === 'mdxJsxTextElement') return reduceInline(name, props, children as PhrasingContent[])

  if (name === 'Installer') {
    const command = text(props.command) ?? (text(props.path) ? `npm install ${text(props.path)}` : undefined)
    return command ? [{ type: 'code', lang: 'bash', value: command }] : []
  }
  if (name === 'img' || name === 'Frame' || name === 'video') {
    const image = imageOf(name, props)
    const caption = text(props.caption)
    return [
      ...(image ? [paragraph([image])] : []),
      ...children,
      ...(caption ? [paragraph([{ type: 'emphasis', children: [{ type: 'text', value: caption }] }])] : []),
    ]
  }
  if (name === 'TypeTable' && isObject(props.type)) {
    return [
      {
        type: 'list',
        ordered: false,
        spread: false,
        children: Object.entries(props.type).map(([field, spec]) => ({
          type: 'listItem',
          spread: false,
          children: [paragraph(describeField(field, isObject(spec) ? spec : {}))],
        })),
      },
    ]
  }

  const callout =
    (Object.hasOwn(CALLOUT_LABELS, name) ? CALLOUT_LABELS[name] : undefined) ??
    (name === 'Callout' ? capitalise(text(props.type) ?? 'info') : undefined)
  if (callout) {
    const body = children as BlockContent[]
    const lead: PhrasingContent = { type: 'strong', children: [{ type: 'text', value: `${callout}:` }] }
    const first = body[0]
    if (first?.type === 'paragraph') first.children.unshift(lead, { type: 'text', value: ' ' })
    else if (first?.type === 'html' && writtenBlocks.get(first) === 'paragraph')
      first.value = `**${callout}:** ${first.value}`
    else body.unshift(paragraph([lead]))
    return [{ type: 'blockquote', children: body }]
  }

  const label = LABEL_PROPS.map(
    (key): PhrasingContent[] | undefined =>
      slots.get(key) ??
      (text(props[key]) === undefined ? undefined : [{ type: 'text', value: String(text(props[key])) }]),
  ).find((value) => value !== undefined)
  const heading: RootContent[] = []
  if (label) trimEdges(label)
  if (label && label.length > 0) {
    const strong: PhrasingContent = { type: 'strong', children: label }
    const href = text(props.href)
    const parts: PhrasingContent[] = [
      href ? ({ type: 'link', url: href, children: [strong] } satisfies Link) : strong,
    ]
    const type = text(props.type)
    if (type && name !== 'Callout')
      parts.push({ type: 'text', value: ' ' }, { type: 'inlineCode', value: type })
    if (props.required === true) parts.push({ type: 'text', value: ' (required)' })
    const description = text(props.description)
    if (description) parts.push({ type: 'text', value: ` — ${description}` })
    heading.push(paragraph(parts))
  }
  return [...heading, ...children]
}

/** Drop the blank text a JSX label starts or ends with (`<><Icon /> Python</>`), as Markdown cannot hold it in `**…**`. */
function trimEdges(nodes: PhrasingContent[]): void {
  // Copies: the text nodes are the page's own, which the HTML still renders.
  const first = nodes[0]
  if (first?.type === 'text') nodes[0] = { ...first, value: first.value.trimStart() }
  const last = nodes[nodes.length - 1]
  if (last?.type === 'text') nodes[nodes.length - 1] = { ...last, value: last.value.trimEnd() }
  const start = nodes[0]
  if (start?.type === 'text' && start.value === '') nodes.shift()
}

function reduceInline(name: string, props: StaticObject, children: PhrasingContent[]): PhrasingContent[] {
  const href = text(props.href)
  if ((name === 'a' || name === 'Link') && href) return [{ type: 'link', url: href, children }]
  if (name === 'img') {
    const image = imageOf(name, props)
    return image ? [image] : []
  }
  if (name === 'br') return [{ type: 'break' }]
  if (name === 'Icon') return []
  return children
}

function imageOf(name: string, props: StaticObject): PhrasingContent | undefined {
  const src = text(props.src)
  if (name === 'Frame' || !src) return undefined
  return { type: 'image', url: src, alt: text(props.alt) ?? '' }
}

function describeField(field: string, spec: StaticObject): PhrasingContent[] {
  const parts: PhrasingContent[] = [{ type: 'inlineCode', value: field }]
  const type = text(spec.type)
  if (type) parts.push({ type: 'text', value: ` (${type})` })
  const description = text(spec.description)
  if (description) parts.push({ type: 'text', value: `: ${description}` })
  const fallback = text(spec.default)
  if (fallback) parts.push({ type: 'text', value: ` Default: ${fallback}.` })
  return parts
}

const paragraph = (children: PhrasingContent[]): Paragraph => ({ type: 'paragraph', children })

const PHRASING = new Set([
  'text',
  'emphasis',
  'strong',
  'delete',
  'inlineCode',
  'link',
  'image',
  'break',
  'html',
  'footnoteReference',
  'linkReference',
  'imageReference',
])

/** A component written on one line holds phrasing; as a block of the export it needs paragraphs. */
function asBlocks(nodes: RootContent[]): RootContent[] {
  const blocks: RootContent[] = []
  let run: PhrasingContent[] = []
  const flush = (): void => {
    if (run.some((node) => node.type !== 'text' || node.value.trim() !== '')) blocks.push(paragraph(run))
    run = []
  }
  for (const node of nodes) {
    if (PHRASING.has(node.type) && !writtenBlocks.has(node)) run.push(node as PhrasingContent)
    else {
      flush()
      blocks.push(node)
    }
  }
  flush()
  return blocks
}
const text = (value: StaticValue): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined
const isObject = (value: StaticValue): value is StaticObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const capitalise = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1)
