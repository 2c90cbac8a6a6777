/**
 * Markup passed as a prop value (`icon={<svg>…</svg>}`), which static-value.ts reads as data, turned
 * into hast. It lands in the page tree, so the page's sanitiser judges it like lowercase JSX in content.
 */
import type { Element, ElementContent, Properties } from 'hast'
import type { StaticObject, StaticValue } from '../content/static-value.js'
import { str } from './html.js'
import { toCss } from './html-element.js'

/**
 * Markup written as a prop value (`icon={<svg …>…</svg>}`), kept as data: lowercase elements with
 * static attributes only (content/static-value.ts reads it so). `markupToHast` below turns it into hast.
 */
export const JSX_MARKUP = '$$jsx'

/**
 * Marks a prop whose JSX value (`label={<><Icon icon="rocket" /> Quickstart</>}`) rehype-components
 * has already rendered: `{ $$html: true, nodes }` (see content/jsx-prop-slots.ts).
 */
export const RENDERED_PROP = '$$html'

export const renderedProp = (nodes: ElementContent[]): StaticValue =>
  ({ [RENDERED_PROP]: true, nodes }) as unknown as StaticValue

const renderedNodes = (value: unknown): ElementContent[] | undefined =>
  typeof value === 'object' && value !== null && RENDERED_PROP in value
    ? ((value as unknown as { nodes?: ElementContent[] }).nodes ?? [])
    : undefined

/**
 * A prop that a component shows as content (a title, a label): text as a text node, JSX written as the
 * prop's value as the HTML it rendered to; `undefined` when absent or of another type.
 */
export function propContent(value: StaticValue): ElementContent[] | undefined {
  const rendered = renderedNodes(value)
  if (rendered) return rendered.length > 0 ? rendered : undefined
  if (isMarkup(value)) return markupToHast(value)
  const text = str(value)
  return text === undefined || text === '' ? undefined : [{ type: 'text', value: text }]
}

/** The plain text of a prop (for ids and labels): its string, or the text of the JSX it holds. */
export function propText(value: StaticValue): string | undefined {
  const text = str(value)
  if (text !== undefined) return text
  const nodes = propContent(value)
  return nodes ? nodes.map(textOf).join('').trim() : undefined
}

const textOf = (node: ElementContent): string =>
  node.type === 'text' ? node.value : 'children' in node ? node.children.map(textOf).join('') : ''

export const isMarkup = (value: unknown): value is StaticObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && JSX_MARKUP in value

/** The markup as hast nodes (a fragment gives several). */
export function markupToHast(value: StaticValue): ElementContent[] {
  if (typeof value === 'string') return [{ type: 'text', value }]
  if (!isMarkup(value)) return []
  const children = Array.isArray(value.children) ? value.children.flatMap(markupToHast) : []
  const tagName = typeof value.tagName === 'string' ? value.tagName : undefined
  if (!tagName) return children
  const properties: Properties = {}
  const source = isObjectValue(value.properties) ? value.properties : {}
  for (const [key, raw] of Object.entries(source)) {
    if (key === 'style') {
      const css = toCss(raw)
      if (css) properties.style = css
      continue
    }
    if ((key === 'className' || key === 'class') && typeof raw === 'string') {
      properties.className = raw.split(/\s+/).filter(Boolean)
    } else if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean')
      properties[key] = raw
  }
  const element: Element = { type: 'element', tagName, properties, children }
  return [element]
}

const isObjectValue = (value: StaticValue): value is StaticObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
