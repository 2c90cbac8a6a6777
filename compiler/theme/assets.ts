/**
 * The shell's stylesheet and script, emitted as `_assets/site.<hash>.css|js`: the name changes only
 * when the bytes do, so hosts can cache them forever. components.css (the content side's styles)
 * is appended to the shell's stylesheet so a page loads one file.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { fromPackageRoot } from '../assets.js'

export interface ThemeFiles {
  cssPath: string
  jsPath: string
  files: Map<string, Uint8Array>
}

let cached: ThemeFiles | undefined

const shortHash = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, 12)

export function themeFiles(): ThemeFiles {
  if (cached) return cached
  const read = (...segments: string[]) => readFileSync(fromPackageRoot(...segments), 'utf8')
  const componentsPath = fromPackageRoot('compiler', 'components', 'components.css')
  const css =
    read('compiler', 'theme', 'assets', 'site.css') +
    (existsSync(componentsPath) ? `\n${read('compiler', 'components', 'components.css')}` : '')
  const cssBytes = new TextEncoder().encode(css)
  const jsBytes = new TextEncoder().encode(read('compiler', 'theme', 'assets', 'site.js'))
  const cssPath = `_assets/site.${shortHash(cssBytes)}.css`
  const jsPath = `_assets/site.${shortHash(jsBytes)}.js`
  cached = {
    cssPath,
    jsPath,
    files: new Map([
      [cssPath, cssBytes],
      [jsPath, jsBytes],
    ]),
  }
  return cached
}
