/**
 * Third-party files a build ships, kept in vendor/ (refreshed by `npm run vendor:update`, checked
 * against vendor/manifest.json by the tests): the mermaid bundle and Lucide's icon shapes.
 */
import { readFileSync } from 'node:fs'
import { fromPackageRoot } from './assets.js'

export const VENDOR_MANIFEST = 'manifest.json'

export interface VendorManifest {
  /** Package name → its version and the sha256 of each file taken from it, by path under vendor/. */
  packages: Record<string, { version: string; files: Record<string, string> }>
}

/** A vendored file's bytes, by its path under vendor/. */
export const readVendored = (path: string): Buffer => readFileSync(fromPackageRoot('vendor', path))

const SHAPES = new Set(['circle', 'ellipse', 'line', 'path', 'polygon', 'polyline', 'rect'])

/**
 * The shapes of a Lucide icon's `.svg`: every child is one self-closing shape element, its attributes
 * kept as written (`stroke-width`, not camel case).
 */
export function lucideShapesOf(svg: string): [string, Record<string, string>][] {
  return [...svg.matchAll(/<([a-z]+)\s([^>]*?)\/>/g)].flatMap(([, tag, attributes]) => {
    if (!tag || !SHAPES.has(tag)) return []
    const properties: Record<string, string> = {}
    for (const [, key, value] of (attributes ?? '').matchAll(/([a-z-]+)="([^"]*)"/g))
      if (key) properties[key] = value ?? ''
    return [[tag, properties] as [string, Record<string, string>]]
  })
}
