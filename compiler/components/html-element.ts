/**
 * Lowercase JSX (`<div>`, `<img>`, `<iframe>`, `<br/>`…) becomes the same HTML element with its
 * static attributes: `className` → class, a style object → a CSS string. What may stay in a page is
 * decided once, for every source, by the sanitiser (content/rehype-sanitize-page.ts), not here.
 */
import type { Properties } from 'hast'
import type { StaticValue } from '../content/static-value.js'
import { h } from './html.js'
import type { Component } from './types.js'

const RENAMED: Record<string, string> = {
  className: 'className',
  class: 'className',
  htmlFor: 'htmlFor',
  for: 'htmlFor',
}

export const htmlElement: Component = (context) => {
  const name = context.node.name ?? 'div'
  const properties: Properties = {}
  for (const [key, value] of Object.entries(context.props)) {
    if (key === 'style') {
      const css = toCss(value)
      if (css) properties.style = css
      continue
    }
    const property = Object.hasOwn(RENAMED, key) ? RENAMED[key]! : key
    if (property === 'className' && typeof value === 'string')
      properties.className = value.split(/\s+/).filter(Boolean)
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      properties[property] = value
  }
  if (/^(iframe|img)$/i.test(name)) properties.loading ??= 'lazy'
  return h(name, properties, context.render())
}

/** `{{ aspectRatio: "16/9" }}` → `aspect-ratio: 16/9`; values that could escape the declaration are dropped. */
export function toCss(value: StaticValue): string | undefined {
  if (typeof value === 'string') return value.includes('<') ? undefined : value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const declarations = Object.entries(value).flatMap(([property, raw]) => {
    if (typeof raw !== 'string' && typeof raw !== 'number') return []
    const text = String(raw)
    if (/[;{}<>]|url\(|expression\(/i.test(text)) return []
    const name = property.startsWith('--')
      ? property
      : property.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
    const unitless =
      typeof raw === 'number' &&
      !/^(opacity|z-index|flex|flex-grow|flex-shrink|font-weight|line-height|order)$/.test(name)
    return [`${name}: ${text}${unitless && raw !== 0 ? 'px' : ''}`]
  })
  return declarations.length > 0 ? declarations.join('; ') : undefined
}
