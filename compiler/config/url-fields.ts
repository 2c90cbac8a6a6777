/**
 * Every URL in docs.json passes the compiler's one URL policy (compiler/url-policy.ts), in strict and
 * lenient builds alike: `logo.href`, navbar links and button, tab and anchor links, contextual
 * options, versions, languages, logo and favicon images, socials, redirect destinations, and any
 * `href`/`url` a newer schema adds. A refused URL is reported at its place and taken out with what
 * cannot work without it (a link without its target), so no later stage ever sees it.
 */

import type { Diagnostic } from '../diagnostics.js'
import { type UrlUse, urlProblem, urlScheme } from '../url-policy.js'
import type { JsonPath } from './json-source.js'
import type { Located } from './refs.js'
import type { ValidationMode } from './types.js'

type Json = Record<string, unknown>

const LINK_KEYS = new Set(['href', 'url'])
/** Objects whose string fields are images (`logo.light`, `favicon.dark`). */
const IMAGE_OWNERS = new Set(['logo', 'favicon'])
/** Keys whose values are all links, whatever their names (`socials.github`). */
const LINK_OWNERS = new Set(['socials'])
/** The navigation's section kinds (config/navigation.ts), at any depth. */
const SECTION_KEYS = new Set(['products', 'versions', 'languages', 'dropdowns', 'anchors', 'tabs', 'menu'])
/**
 * Links that may go while their object stays: the logo then leads home, a section to its first page
 * (its pages and groups stay; a section that was only a link has nothing left and is not drawn).
 */
const isOptionalLink = (path: JsonPath): boolean =>
  (path.length === 2 && path[0] === 'logo' && path[1] === 'href') ||
  (path[0] === 'navigation' && path.at(-1) === 'href' && SECTION_KEYS.has(String(path.at(-3))))

/** `redirects[i].destination`: where docs-server, the export and the shell's links send readers. */
const isRedirectDestination = (path: JsonPath): boolean =>
  path.length === 3 && path[0] === 'redirects' && path[2] === 'destination'

/** How docs.json's string at `path` is used as a URL, or `undefined` when it is not a URL. */
function urlUseAt(path: JsonPath, value: string): UrlUse | undefined {
  const key = path.at(-1)
  const owner = path.at(-2)
  if (typeof key !== 'string') return typeof owner === 'string' && LINK_OWNERS.has(owner) ? 'link' : undefined
  if (LINK_KEYS.has(key) || isRedirectDestination(path)) return 'link'
  if (path.length === 1 && IMAGE_OWNERS.has(key)) return 'image'
  if (path.length === 2 && typeof owner === 'string' && IMAGE_OWNERS.has(owner) && key !== 'alt')
    return 'image'
  if (typeof owner === 'string' && LINK_OWNERS.has(owner)) return 'link'
  // A script URL is never meant, wherever it stands (a key added later, a metatag).
  const scheme = urlScheme(value)
  return scheme === 'javascript' || scheme === 'vbscript' || scheme === 'livescript' ? 'link' : undefined
}

export function dropUnsafeConfigUrls(
  data: Json,
  mode: ValidationMode,
  locate: (path: JsonPath) => Located & { path: string },
  diagnostics: Diagnostic[],
): void {
  const refused: JsonPath[] = []
  const walk = (value: unknown, path: JsonPath): void => {
    if (typeof value === 'string') {
      const use = urlUseAt(path, value)
      const problem = use ? urlProblem(value, use) : undefined
      if (!problem) return
      diagnostics.push({
        severity: mode === 'strict' ? 'error' : 'warning',
        ...locate(path),
        rule: 'unsafe-url',
        message: `Unexpected ${problem}, expected an http(s) URL or a site path; it is left out`,
      })
      refused.push(path)
    } else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, [...path, index])
    } else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) walk(item, [...path, key])
  }
  walk(data, [])
  // Each removal once, last first, so removing an array entry never shifts one still to remove.
  const removals = new Map(refused.map(removalOf).map((path) => [JSON.stringify(path), path]))
  for (const path of [...removals.values()].sort(comparePaths).reverse()) remove(data, path)
}

/**
 * What goes with a refused URL: a link whose target it was goes whole (but a logo or a navigation
 * section stays and leads home or to its first page), a logo or favicon needs both colour modes, anything else goes alone.
 */
function removalOf(path: JsonPath): JsonPath {
  const key = path.at(-1)
  const owner = path.at(-2)
  if (path.length === 1 || isOptionalLink(path)) return path
  if ((typeof key === 'string' && LINK_KEYS.has(key)) || isRedirectDestination(path)) return path.slice(0, -1)
  if (path.length === 2 && typeof owner === 'string' && IMAGE_OWNERS.has(owner)) return path.slice(0, -1)
  return path
}

function comparePaths(a: JsonPath, b: JsonPath): number {
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const [x, y] = [a[index]!, b[index]!]
    if (x === y) continue
    return typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
  }
  return a.length - b.length
}

function remove(data: Json, path: JsonPath): void {
  let parent: unknown = data
  for (const segment of path.slice(0, -1)) {
    parent = parent !== null && typeof parent === 'object' ? (parent as Json)[segment as string] : undefined
  }
  const last = path.at(-1)
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1)
  else if (parent !== null && typeof parent === 'object' && last !== undefined) delete (parent as Json)[last]
}
