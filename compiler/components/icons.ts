/**
 * Icons by name from the Font Awesome free packages, as inline SVG. Each icon is read from its own
 * module (`@fortawesome/free-solid-svg-icons/faRocket`) on first use, so only icons a site uses are
 * loaded. `iconType` picks the style; styles the free set lacks (light, thin, duotone…) fall back to
 * solid, and a name missing from the chosen style is looked up in the others. Lucide names
 * (`iconType="lucide"`, or a name only Lucide has) come from lucide.ts; a name only Font Awesome Pro
 * has becomes the nearest free icon (fontawesome-pro.ts).
 */
import { createRequire } from 'node:module'
import type { Element } from 'hast'
import { PRO_DIGIT, PRO_ONLY_ICONS } from './fontawesome-pro.js'
import { h } from './html.js'
import { lucideIcon, lucideIconNames } from './lucide.js'

const require = createRequire(import.meta.url)

type IconDefinition = {
  prefix: string
  iconName: string
  icon: [number, number, string[], string, string | string[]]
}

const PACKAGES = {
  solid: '@fortawesome/free-solid-svg-icons',
  regular: '@fortawesome/free-regular-svg-icons',
  brands: '@fortawesome/free-brands-svg-icons',
} as const
type Style = keyof typeof PACKAGES

/** Icons found, by `style/name`: bounded by the free sets. */
const definitions = new Map<string, IconDefinition>()

/**
 * `style/name` keys that are in no module: a failed `require` searches the disk, and a Lucide name is
 * looked for in all three styles on every page that shows it. Bounded, since page text picks the names.
 */
const misses = new Set<string>()
const MAX_MISSES = 4096

function load(style: Style, name: string): IconDefinition | undefined {
  const key = `${style}/${name}`
  const known = definitions.get(key)
  if (known) return known
  if (misses.has(key)) return undefined
  const exportName = `fa${name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}`
  try {
    const module = require(`${PACKAGES[style]}/${exportName}`) as { definition?: IconDefinition }
    if (module.definition) definitions.set(key, module.definition)
    else missed(key)
    return module.definition
  } catch {
    missed(key)
    return undefined
  }
}

function missed(key: string): void {
  if (misses.size >= MAX_MISSES) misses.clear()
  misses.add(key)
}

export interface ResolvedIcon {
  /** `solid/rocket`: the style and canonical name that was found. */
  id: string
  svg: Element
  /** The Font Awesome Pro name asked for, when this is the free icon shown in its place. */
  proName?: string
}

/** Look an icon up by name: Font Awesome's free styles, then Lucide (first, for `iconType="lucide"`). */
export function resolveIcon(name: string, iconType?: string): ResolvedIcon | undefined {
  const clean = name.trim().toLowerCase().replace(/^fa-/, '')
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(clean)) return undefined
  const lucide = (): ResolvedIcon | undefined => {
    const svg = lucideIcon(clean)
    return svg && { id: `lucide/${clean}`, svg }
  }
  if (iconType === 'lucide') return lucide() ?? fontAwesome(clean, undefined)
  return fontAwesome(clean, iconType) ?? lucide() ?? proFallback(clean, iconType)
}

function proFallback(clean: string, iconType: string | undefined): ResolvedIcon | undefined {
  const free = PRO_ONLY_ICONS.get(clean) ?? PRO_DIGIT.exec(clean)?.[1]
  const icon = free === undefined ? undefined : fontAwesome(free, iconType)
  return icon && { ...icon, proName: clean }
}

/**
 * What an unknown icon name shows: a plain outlined circle, so the layout keeps its icon slot and
 * nothing suggests a meaning the author did not pick.
 */
export function neutralIcon(): ResolvedIcon {
  return fontAwesome('circle', 'regular') as ResolvedIcon
}

function fontAwesome(clean: string, iconType: string | undefined): ResolvedIcon | undefined {
  const preferred: Style = iconType === 'regular' ? 'regular' : iconType === 'brands' ? 'brands' : 'solid'
  const order: Style[] = [
    preferred,
    ...(['solid', 'regular', 'brands'] as Style[]).filter((s) => s !== preferred),
  ]
  for (const style of order) {
    const definition = load(style, clean)
    if (definition) return { id: `${style}/${definition.iconName}`, svg: toSvg(definition) }
  }
  return undefined
}

/** Every icon name Font Awesome's free sets answer to (aliases included), read once on first use. */
let fontAwesomeNames: readonly string[] | undefined

/**
 * The icon names `resolveIcon` knows, for a did-you-mean on an unknown one: the free Font Awesome
 * names and aliases, then Lucide's. Loading the packages' indexes is costly, so only an unknown
 * icon asks for it, once per process.
 */
export function knownIconNames(): readonly string[] {
  if (!fontAwesomeNames) {
    const names = new Set<string>()
    for (const name of Object.values(PACKAGES)) {
      const exports = require(name) as Record<string, unknown>
      for (const value of Object.values(exports)) {
        if (typeof value !== 'object' || value === null || !('iconName' in value)) continue
        const definition = value as IconDefinition
        names.add(definition.iconName)
        for (const alias of definition.icon[2]) if (typeof alias === 'string') names.add(alias)
      }
    }
    fontAwesomeNames = [...names]
  }
  return [...fontAwesomeNames, ...lucideIconNames()]
}

function toSvg(definition: IconDefinition): Element {
  const [width, height, , , pathData] = definition.icon
  const paths = Array.isArray(pathData) ? pathData : [pathData]
  return h(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      viewBox: `0 0 ${width} ${height}`,
      className: ['d-icon-svg'],
      ariaHidden: 'true',
      focusable: 'false',
      fill: 'currentColor',
    },
    paths.map((d) => h('path', { d })),
  )
}
