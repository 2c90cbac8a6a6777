/**
 * Lucide icons by name, as inline SVG, from Lucide's icon shapes vendored in vendor/lucide/icons.json
 * (from `lucide-static`, by `npm run vendor:update`), read once per process on first use. Lucide icons
 * are strokes on a 24×24 grid (`stroke="currentColor"`, no fill), and every child is one shape element.
 */
import type { Element, Properties } from 'hast'
import { cloneTree } from '../clone-tree.js'
import { readVendored } from '../vendor.js'
import { h } from './html.js'

type IconShapes = Record<string, [string, Record<string, string>][]>

let shapesByName: IconShapes | undefined

/** Icons drawn, by name: bounded by the set. */
const icons = new Map<string, Element>()

/** Every Lucide icon name, for a did-you-mean on an unknown icon. */
export function lucideIconNames(): readonly string[] {
  shapesByName ??= JSON.parse(readVendored('lucide/icons.json').toString('utf8')) as IconShapes
  return Object.keys(shapesByName)
}

/** The Lucide icon `name` (`rocket`, `square-pen`) as an `<svg>` element, or `undefined`. */
export function lucideIcon(name: string): Element | undefined {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) return undefined
  const known = icons.get(name)
  if (known) return cloneTree(known)
  shapesByName ??= JSON.parse(readVendored('lucide/icons.json').toString('utf8')) as IconShapes
  if (!Object.hasOwn(shapesByName, name)) return undefined
  const shapes = shapesByName[name]!.map(([tag, attributes]) => {
    const properties: Properties = {}
    for (const [key, value] of Object.entries(attributes))
      properties[key.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())] = value
    return h(tag, properties)
  })
  if (shapes.length === 0) return undefined
  const svg = h(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      viewBox: '0 0 24 24',
      className: ['d-icon-svg', 'd-icon-lucide'],
      ariaHidden: 'true',
      focusable: 'false',
      fill: 'none',
      stroke: 'currentColor',
      strokeWidth: '2',
      strokeLinecap: 'round',
      strokeLinejoin: 'round',
    },
    shapes,
  )
  icons.set(name, svg)
  return cloneTree(svg)
}
