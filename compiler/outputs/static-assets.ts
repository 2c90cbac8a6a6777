/**
 * Files copied into the site as they are: every asset a page references, the logo and favicon, and
 * (in a full build) every media file of the site, since pages can point at images in ways a
 * compiler cannot see (custom HTML, CSS). Page sources, snippets and config are never copied.
 */
import type { DocsConfig } from '../config/types.js'
import type { SourceFiles } from '../files.js'

const MEDIA =
  /\.(png|jpe?g|gif|svg|webp|avif|ico|bmp|mp4|webm|mov|mp3|wav|pdf|woff2?|ttf|otf|eot|zip|csv|txt|xml|yaml|yml)$/i

const isRemote = (path: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')

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

export function collectStaticAssets(
  files: SourceFiles,
  config: DocsConfig,
  referenced: ReadonlySet<string>,
  includeAllMedia: boolean,
): Map<string, Uint8Array> {
  const copied = new Map<string, Uint8Array>()
  for (const path of [...referenced, ...configAssetPaths(config)]) {
    const bytes = files.get(path)
    if (bytes) copied.set(path, bytes)
  }
  if (includeAllMedia) {
    for (const [path, bytes] of files) {
      if (MEDIA.test(path) && !path.endsWith('robots.txt') && !path.startsWith('llms'))
        copied.set(path, bytes)
    }
  }
  return copied
}
