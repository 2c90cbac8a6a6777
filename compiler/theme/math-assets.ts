/**
 * KaTeX's stylesheet and fonts, served from the site's own `_assets/` (never a CDN) and linked only
 * by pages that show math. The stylesheet keeps only the woff2 fonts every current browser reads;
 * the folder is named by the stylesheet's hash, so hosts can cache it forever like the theme's files.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

export interface MathFiles {
  cssPath: string
  files: Map<string, Uint8Array>
}

let cached: MathFiles | undefined

/** KaTeX's files, read once per process from the installed `katex` package. */
export function mathFiles(): MathFiles {
  if (cached) return cached
  const cssFile = createRequire(import.meta.url).resolve('katex/dist/katex.min.css')
  const css = readFileSync(cssFile, 'utf8').replace(
    /src:url\((fonts\/[\w-]+\.woff2)\) format\("woff2"\)(?:,url\([^)]*\) format\("[a-z]+"\))*/g,
    'src:url($1) format("woff2")',
  )
  const cssBytes = new TextEncoder().encode(css)
  const folder = `_assets/katex.${createHash('sha256').update(cssBytes).digest('hex').slice(0, 12)}`
  const files = new Map<string, Uint8Array>([[`${folder}/katex.css`, cssBytes]])
  for (const [, font] of css.matchAll(/url\((fonts\/[\w-]+\.woff2)\)/g)) {
    if (font) files.set(`${folder}/${font}`, readFileSync(join(dirname(cssFile), font)))
  }
  cached = { cssPath: `${folder}/katex.css`, files }
  return cached
}
