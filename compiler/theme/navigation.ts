/** Where a page sits: its tab, and its neighbours in reading order (hidden pages are skipped). */
import type { NavigationTree, PageLocation } from '../config/types.js'

export interface PageNeighbours {
  previous?: PageLocation
  next?: PageLocation
}

/** Index of navigation pages by slug; the first occurrence wins, as in the sidebar. */
export function indexLocations(navigation: NavigationTree): Map<string, PageLocation> {
  const bySlug = new Map<string, PageLocation>()
  for (const location of navigation.pages) if (!bySlug.has(location.slug)) bySlug.set(location.slug, location)
  return bySlug
}

/**
 * Previous and next visible pages of every page, within the same tab so pagination never jumps
 * sections. Computed once per build: per-page lookups would be quadratic on large sites.
 */
export function indexNeighbours(
  navigation: NavigationTree,
  isBuilt: (slug: string) => boolean,
): Map<string, PageNeighbours> {
  const visible = navigation.pages.filter((location) => !location.hidden && isBuilt(location.slug))
  const bySlug = new Map<string, PageNeighbours>()
  visible.forEach((here, at) => {
    if (bySlug.has(here.slug)) return
    const previous = visible[at - 1]
    const next = visible[at + 1]
    const result: PageNeighbours = {}
    if (previous && previous.tab === here.tab) result.previous = previous
    if (next && next.tab === here.tab) result.next = next
    bySlug.set(here.slug, result)
  })
  return bySlug
}
