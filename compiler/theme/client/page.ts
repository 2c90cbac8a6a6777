/** What the page shell tells the script through `<meta>` tags and event targets. */

/** The content of `<meta name="…">`, or '' when the page has none. */
export const meta = (name: string): string =>
  document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? ''

/**
 * The site's root URL: pages are written relative to it, so the same build serves under any prefix.
 * Resolved against the document's base, which the server sets on the 404 page (served at any depth).
 */
export const siteRoot = (): URL => new URL(meta('docs-root') || './', document.baseURI)

/** The nearest ancestor of an event's target matching `selector`; targets that are not elements have none. */
export const closestTo = (event: Event, selector: string): HTMLElement | null => {
  const target = event.target
  return target instanceof Element ? target.closest<HTMLElement>(selector) : null
}
