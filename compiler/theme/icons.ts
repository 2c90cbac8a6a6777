/**
 * Icons named in docs.json and front matter (sidebar, tabs, anchors), as inline SVG from the Font
 * Awesome free sets. The sets are loaded on first use only, so sites without icons pay nothing.
 */
import { createRequire } from 'node:module'

interface IconDefinition {
  icon: [number, number, unknown, string, string | string[]]
}
type IconSet = Record<string, IconDefinition | unknown>

const require = createRequire(import.meta.url)
const sets = new Map<string, IconSet>()
const packages = {
  solid: '@fortawesome/free-solid-svg-icons',
  regular: '@fortawesome/free-regular-svg-icons',
  brands: '@fortawesome/free-brands-svg-icons',
} as const

function load(style: keyof typeof packages): IconSet {
  let set = sets.get(style)
  if (!set) {
    set = require(packages[style]) as IconSet
    sets.set(style, set)
  }
  return set
}

const exportName = (name: string): string =>
  `fa${name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}`

const isDefinition = (value: unknown): value is IconDefinition =>
  typeof value === 'object' && value !== null && Array.isArray((value as IconDefinition).icon)

const rendered = new Map<string, string | undefined>()

/**
 * The SVG for an icon name (`house`, `github`) in the given style; other styles are tried when the
 * requested one lacks it (light, thin and duotone are not in the free sets). `undefined` when unknown,
 * or when the name is a URL or path (custom icons are not supported in the shell).
 */
export function iconSvg(name: string, iconType: string | undefined): string | undefined {
  const key = `${iconType ?? ''}:${name}`
  if (rendered.has(key)) return rendered.get(key)
  let svg: string | undefined
  if (/^[a-z0-9-]+$/.test(name)) {
    const preferred: keyof typeof packages =
      iconType === 'regular' ? 'regular' : iconType === 'brands' ? 'brands' : 'solid'
    const order: (keyof typeof packages)[] = [
      preferred,
      ...(['solid', 'regular', 'brands'] as const).filter((style) => style !== preferred),
    ]
    for (const style of order) {
      const definition = load(style)[exportName(name)]
      if (!isDefinition(definition)) continue
      const [width, height, , , path] = definition.icon
      const paths = (Array.isArray(path) ? path : [path]).map((d) => `<path d="${d}"/>`).join('')
      svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" fill="currentColor" aria-hidden="true" focusable="false">${paths}</svg>`
      break
    }
  }
  rendered.set(key, svg)
  return svg
}
