/**
 * Lucide icons by name, as inline SVG, from the `lucide-static` package: each icon's own `.svg` file is
 * read on first use, so a site loads only the icons it names. Lucide icons are strokes on a 24×24 grid
 * (`stroke="currentColor"`, no fill), and every child is one self-closing shape element.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Element, Properties } from 'hast'
import { cloneTree } from '../clone-tree.js'
import { h } from './html.js'

const require = createRequire(import.meta.url)

/** Icons found, by name: bounded by the set. */
const icons = new Map<string, Element>()

/** Names with no icon file, so a page does not search the disk for them again; bounded. */
const misses = new Set<string>()
const MAX_MISSES = 4096

const SHAPES = new Set(['circle', 'ellipse', 'line', 'path', 'polygon', 'polyline', 'rect'])

/** The Lucide icon `name` (`rocket`, `square-pen`) as an `<svg>` element, or `undefined`. */
export function lucideIcon(name: string): Element | undefined {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) return undefined
  const known = icons.get(name)
  if (known) return cloneTree(known)
  if (misses.has(name)) return undefined
  let source: string
  try {
    source = readFileSync(require.resolve(`lucide-static/icons/${name}.svg`), 'utf8')
  } catch {
    if (misses.size >= MAX_MISSES) misses.clear()
    misses.add(name)
    return undefined
  }
  const shapes = [...source.matchAll(/<([a-z]+)\s([^>]*?)\/>/g)].flatMap(([, tag, attributes]) => {
    if (!tag || !SHAPES.has(tag)) return []
    const properties: Properties = {}
    for (const [, key, value] of (attributes ?? '').matchAll(/([a-z-]+)="([^"]*)"/g)) {
      if (key) properties[key.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())] = value ?? ''
    }
    return [h(tag, properties)]
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
