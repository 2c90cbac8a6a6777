/**
 * Icons named in docs.json and front matter (sidebar, tabs, anchors) as inline SVG markup. They come
 * from the one icon loader (components/icons.ts), which reads each Font Awesome icon's own module on
 * first use, so a site loads only the icons it names.
 */
import { toHtml } from 'hast-util-to-html'
import { resolveIcon } from '../components/icons.js'

const rendered = new Map<string, string>()

/** The SVG for an icon name (`house`, `github`) in the given style; `undefined` when no free set has it. */
export function iconSvg(name: string, iconType: string | undefined): string | undefined {
  const key = `${iconType ?? ''}:${name}`
  const cached = rendered.get(key)
  if (cached !== undefined) return cached
  const icon = resolveIcon(name, iconType)
  if (!icon) return undefined
  // Only icons that exist are remembered, so the map is bounded by the icon sets, not by what authors type.
  const svg = toHtml(icon.svg)
  rendered.set(key, svg)
  return svg
}
