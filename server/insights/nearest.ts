/**
 * What a team adds after reading its insights: for a query that found nothing, the pages whose titles
 * come closest (so a page or a synonym can be added); for a path readers found missing, the page whose
 * path comes closest (the redirect to add). Closeness is edit distance over lowercase text, with a
 * shared word counting as a near match.
 */
import { distance } from 'fastest-levenshtein'
import type { IndexedPage } from '../../compiler/outputs/search-rank.js'

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)

/** 0 (same) to 1 (nothing alike): the best of the whole title and each of its words against the query. */
function titleDistance(query: string, title: string): number {
  const whole = title.toLowerCase()
  let best = distance(query, whole) / Math.max(query.length, whole.length, 1)
  for (const queryWord of words(query)) {
    for (const word of words(title)) {
      const d = distance(queryWord, word) / Math.max(queryWord.length, word.length)
      // A word alike counts a little less than the whole title alike.
      best = Math.min(best, 0.1 + d * 0.9)
    }
  }
  return best
}

/** Up to `count` pages whose titles come closest to `query`, closest first. */
export function closestTitles(
  query: string,
  pages: readonly IndexedPage[],
  count = 3,
): { path: string; title: string }[] {
  return pages
    .map((page) => ({ page, d: titleDistance(query.toLowerCase(), page.t) }))
    .filter((entry) => entry.d < 0.6)
    .sort((a, b) => a.d - b.d || a.page.u.localeCompare(b.page.u))
    .slice(0, count)
    .map(({ page }) => ({ path: page.u, title: page.t }))
}

/** The page path closest to a missing one, or undefined when none is near enough to suggest. */
export function closestPath(missing: string, pagePaths: readonly string[]): string | undefined {
  const wanted = missing.replace(/\/?(index\.html?)?$/, '/').toLowerCase()
  const lastPart = (path: string) => path.split('/').filter(Boolean).pop() ?? ''
  let best: { path: string; d: number } | undefined
  for (const path of pagePaths) {
    const whole = distance(wanted, path.toLowerCase()) / Math.max(wanted.length, path.length, 1)
    const last =
      distance(lastPart(wanted), lastPart(path)) / Math.max(lastPart(wanted).length, lastPart(path).length, 1)
    const d = Math.min(whole, last + 0.05)
    if (!best || d < best.d || (d === best.d && path < best.path)) best = { path, d }
  }
  return best && best.d < 0.5 ? best.path : undefined
}
