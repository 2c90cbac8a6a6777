/**
 * Markup passed as a prop value (`icon={<svg>…</svg>}`), which static-value.ts reads as data, turned
 * into hast. It lands in the page tree, so the page's sanitiser judges it like lowercase JSX in content.
 */
import type { Element, ElementContent, Properties } from 'hast'
import { JSX_MARKUP, type StaticObject, type StaticValue } from '../content/static-value.js'
import { toCss } from './html-element.js'

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
