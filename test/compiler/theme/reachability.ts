/**
 * How a reader finds pages in a built site: starting from the home page, follow only the links of
 * the navigation (sidebar, tab bar, switchers, section menus) and collect the pages reached. Walks
 * the built HTML, so it measures what readers get, not what the config says.
 */
import { posix } from 'node:path'

/** Regions of the shell whose links are navigation. */
const NAVIGATION_REGIONS = [
  /<aside class="d-sidebar"[\s\S]*?<\/aside>/g,
  /<nav class="d-tabs"[\s\S]*?<\/nav>/g,
  /<details class="d-dropdown d-switcher"[\s\S]*?<\/details>/g,
]

/** Navigation links of one built page, resolved to the page files they open. */
export function navigationTargets(pagePath: string, html: string): string[] {
  const targets: string[] = []
  for (const region of NAVIGATION_REGIONS) {
    for (const [block] of html.matchAll(region)) {
      for (const [, href] of block.matchAll(/<a [^>]*href="([^"#]*)[^"]*"/g)) {
        if (href === undefined || /^([a-z][a-z0-9+.-]*:|\/\/)/i.test(href)) continue
        const resolved = posix.normalize(posix.join(posix.dirname(pagePath), href))
        targets.push(
          resolved === '.' ? 'index.html' : `${resolved.replace(/\/$/, '')}/index.html`.replace(/^\.\//, ''),
        )
      }
    }
  }
  return targets
}

/** Page files reached from `start` through navigation links only (a slug's file: `pageOutputPath`). */
export function reachablePages(files: ReadonlyMap<string, Uint8Array>, start: string): Set<string> {
  const decoder = new TextDecoder()
  // Breadth first; a page is queued once (every page's sidebar links to every other, so queueing
  // each link would make the queue the square of the site's size).
  const queued = new Set([start])
  const reached = new Set<string>()
  const queue = [start]
  for (let next = 0; next < queue.length; next++) {
    const path = queue[next]!
    const bytes = files.get(path)
    if (!bytes) continue
    reached.add(path)
    for (const target of navigationTargets(path, decoder.decode(bytes)))
      if (!queued.has(target)) {
        queued.add(target)
        queue.push(target)
      }
  }
  return reached
}

/** The home page file of a built site: `index.html`, or the page its meta refresh sends readers to. */
export function homeFile(files: ReadonlyMap<string, Uint8Array>): string {
  const root = files.get('index.html')
  const refresh =
    root && /http-equiv="refresh" content="0; url=([^"]*)"/.exec(new TextDecoder().decode(root))?.[1]
  if (!refresh) return 'index.html'
  return `${posix.normalize(refresh).replace(/\/$/, '')}/index.html`
}
