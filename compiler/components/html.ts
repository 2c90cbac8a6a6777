/** Small helpers for writing hast by hand, and for reading props of the types components expect. */
import type { Element, ElementContent, Properties } from 'hast'
import type { StaticValue } from '../content/static-value.js'
import type { JsxNode } from './types.js'

export function h(
  tagName: string,
  properties: Properties = {},
  children: readonly (ElementContent | string | undefined | false)[] = [],
): Element {
  const clean: Properties = {}
  for (const [key, value] of Object.entries(properties))
    if (value !== undefined && value !== false) clean[key] = value
  return {
    type: 'element',
    tagName,
    properties: clean,
    children: children.flatMap((child) =>
      child === undefined || child === false
        ? []
        : typeof child === 'string'
          ? [{ type: 'text', value: child }]
          : [child],
    ),
  }
}

export const str = (value: StaticValue): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined

export const bool = (value: StaticValue, fallback = false): boolean =>
  typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : fallback

export function num(value: StaticValue): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN
  return Number.isFinite(number) ? number : undefined
}

/** A JSX child with the given component name (`Tab`, `Tree.Folder`…), still unrendered. */
export const isComponent = (node: ElementContent, ...names: string[]): node is ElementContent & JsxNode =>
  (node.type === ('mdxJsxFlowElement' as string) || node.type === ('mdxJsxTextElement' as string)) &&
  names.includes((node as unknown as JsxNode).name ?? '')

export const asJsx = (node: ElementContent): JsxNode => node as unknown as JsxNode

/** Whitespace-only text between JSX children, which components that list children skip. */
export const isBlank = (node: ElementContent): boolean => node.type === 'text' && node.value.trim() === ''

/** A CSS colour an author wrote, kept only when it cannot break out of a style attribute. */
export const safeColor = (value: StaticValue): string | undefined => {
  const color = str(value)?.trim()
  return color && /^(#[0-9a-f]{3,8}|[a-z]+|(rgb|rgba|hsl|hsla|oklch)\([\d\s.,%/a-z-]+\))$/i.test(color)
    ? color
    : undefined
}

export const isExternalUrl = (href: string): boolean =>
  /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')
