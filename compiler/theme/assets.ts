/**
 * The shell's stylesheet and script, emitted as `_assets/site.<hash>.css|js`: the name changes only
 * when the bytes do, so hosts can cache them forever. components.css (the content side's styles)
 * is appended to the shell's stylesheet so a page loads one file.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fromPackageRoot } from '../assets.js'

/**
 * Every file the theme reads at run time, relative to the package root. package.json `files` ships
 * each one, and test/e2e/package.test.ts builds a site from the packed tarball to prove it.
 */
export const THEME_ASSETS = {
  stylesheets: ['compiler/theme/assets/site.css', 'compiler/components/components.css'],
  /** Bundled from compiler/theme/client/ by `npm run build`. */
  script: 'dist/compiler/theme/assets/site.js',
  /** The "Try it" panel of API pages (compiler/theme/client/api-playground.ts), loaded only by them. */
  apiScript: 'dist/compiler/theme/assets/api.js',
} as const

/** A runtime asset is not where the package should hold it: an incomplete install or a partial build. */
export class MissingThemeAssetError extends Error {
  constructor(readonly assetPath: string) {
    super(
      `docsctl cannot find its theme asset ${assetPath} (looked in ${fromPackageRoot(assetPath)}). ` +
        'The package is incomplete: reinstall it, or run `npm run build` in a source checkout. ' +
        'Without it every page would be published unstyled.',
    )
    this.name = 'MissingThemeAssetError'
  }
}

export interface ThemeFiles {
  cssPath: string
  jsPath: string
  apiJsPath: string
  files: Map<string, Uint8Array>
}

let cached: ThemeFiles | undefined

const shortHash = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, 12)

function readAsset(path: string): string {
  try {
    return readFileSync(fromPackageRoot(path), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new MissingThemeAssetError(path)
    throw error
  }
}

/** The theme's files, read once per process; throws MissingThemeAssetError naming any file not found. */
export function themeFiles(): ThemeFiles {
  if (cached) return cached
  const cssBytes = new TextEncoder().encode(THEME_ASSETS.stylesheets.map(readAsset).join('\n'))
  const jsBytes = new TextEncoder().encode(readAsset(THEME_ASSETS.script))
  const apiJsBytes = new TextEncoder().encode(readAsset(THEME_ASSETS.apiScript))
  const cssPath = `_assets/site.${shortHash(cssBytes)}.css`
  const jsPath = `_assets/site.${shortHash(jsBytes)}.js`
  const apiJsPath = `_assets/api.${shortHash(apiJsBytes)}.js`
  cached = {
    cssPath,
    jsPath,
    apiJsPath,
    files: new Map([
      [cssPath, cssBytes],
      [jsPath, jsBytes],
      [apiJsPath, apiJsBytes],
    ]),
  }
  return cached
}
