/**
 * Files copied into the site as they are: only what the site references (assets a page links or
 * shows, the logo and favicon) and whatever the author put in the public folder on purpose. An
 * uploaded file nothing points at (an `.svg` or `.html` that could run script on the site's origin
 * when opened) is not published. Page sources, snippets and config are never copied.
 */
import type { DocsConfig } from '../config/types.js'
import type { SourceFiles } from '../files.js'

/** Files under this folder are published as they are, at the same path, referenced or not. */
export const PUBLIC_FOLDER = 'public/'

const isRemote = (path: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')

/** Pages are rendered, never copied, even from the public folder. */
const isSource = (path: string): boolean => /\.mdx?$/i.test(path)

/** Site paths the config points at: logo and favicon variants. */
export function configAssetPaths(config: DocsConfig): string[] {
  const paths: string[] = []
  const add = (value: string | undefined) => {
    if (value && !isRemote(value)) paths.push(value.replace(/^\/+/, ''))
  }
  if (typeof config.logo === 'string') add(config.logo)
  else if (config.logo) {
    add(config.logo.light)
    add(config.logo.dark)
  }
  if (typeof config.favicon === 'string') add(config.favicon)
  else if (config.favicon) {
    add(config.favicon.light)
    add(config.favicon.dark)
  }
  return paths
}

/**
 * The files to copy: `referenced` (from the pages being built) and the config's assets always; the
 * public folder only in a full build (a partial one writes only the pages asked for).
 */
export function collectStaticAssets(
  files: SourceFiles,
  config: DocsConfig,
  referenced: ReadonlySet<string>,
  includePublic: boolean,
): Map<string, Uint8Array> {
  const copied = new Map<string, Uint8Array>()
  // Browsers ask for `/favicon.ico` by themselves: a site's root one counts as referenced.
  for (const path of [...referenced, ...configAssetPaths(config), 'favicon.ico']) {
    const bytes = files.get(path)
    if (bytes) copied.set(path, bytes)
  }
  if (includePublic) {
    for (const [path, bytes] of files) {
      if (path.startsWith(PUBLIC_FOLDER) && !isSource(path)) copied.set(path, bytes)
    }
  }
  return copied
}
