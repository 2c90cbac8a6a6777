/**
 * Lowercase JSX (`<div>`, `<img>`, `<iframe>`, `<br/>`…) becomes the same HTML element with its
 * static attributes: `className` → class, a style object → a CSS string. Nothing that runs is kept:
 * `<script>` and friends are dropped, and so are `on*` handlers and `javascript:` URLs.
 */
import type { Properties } from 'hast'
import { ANIMATION_ELEMENTS, unsafeAttribute } from '../content/safe-url.js'
import type { StaticValue } from '../content/static-value.js'
import { h } from './html.js'
import type { Component } from './types.js'

const FORBIDDEN_ELEMENTS = new Set([
  'script',
  'style',
  'object',
  'embed',
  'base',
  'meta',
  'link',
  'form',
  'frame',
  'frameset',
])

const RENAMED: Record<string, string> = {
  className: 'className',
  class: 'className',
  htmlFor: 'htmlFor',
  for: 'htmlFor',
}

export const htmlElement: Component = (context) => {
  const name = context.node.name ?? 'div'
  if (FORBIDDEN_ELEMENTS.has(name) || ANIMATION_ELEMENTS.has(name.toLowerCase())) {
    context.warn(
      'forbidden-element',
      `Unexpected <${name}> in a page, expected content without scripts or styles; it is left out`,
    )
    return []
  }
  const properties: Properties = {}
  for (const [key, value] of Object.entries(context.props)) {
    const unsafe = unsafeAttribute(key, value)
    if (unsafe) {
      context.warn(
        'forbidden-attribute',
        `Unexpected \`${key}\` on <${name}> holding ${unsafe}; author code does not run, so it is left out`,
      )
      continue
    }
    if (key === 'style') {
      const css = toCss(value)
      if (css) properties.style = css
      continue
    }
    const property = RENAMED[key] ?? key
    if (property === 'className' && typeof value === 'string')
      properties.className = value.split(/\s+/).filter(Boolean)
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      properties[property] = value
  }
  if (name === 'iframe' || name === 'img') properties.loading ??= 'lazy'
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
