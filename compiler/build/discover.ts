/**
 * Stage 3 of `buildSite`: find the pages.
 * In: the site's files (API reference pages already added, compiler/openapi/) and the navigation tree.
 * Out: every page of the site (navigation's pages in navigation order, then unlisted `.mdx` files by
 * slug) with the file that holds it, and diagnostics for navigation entries without a file and for
 * two files that claim one URL.
 */
import type { NavigationTree, ValidationMode } from '../config/types.js'
import type { Diagnostic } from '../diagnostics.js'
import type { SourceFiles } from '../files.js'

export interface SitePage {
  slug: string
  file: string
  inNavigation: boolean
}

const isSnippetPath = (path: string): boolean =>
  path.startsWith('snippets/') || path.split('/').some((segment) => segment.startsWith('_'))

export function discoverPages(
  files: SourceFiles,
  navigation: NavigationTree,
  mode: ValidationMode,
): { pages: SitePage[]; diagnostics: Diagnostic[] } {
  const pages: SitePage[] = []
  const diagnostics: Diagnostic[] = []
  const seen = new Set<string>()
  for (const location of navigation.pages) {
    if (seen.has(location.slug)) continue
    seen.add(location.slug)
    const file = [`${location.slug}.mdx`, `${location.slug}.md`].find((candidate) => files.has(candidate))
    if (file) {
      pages.push({ slug: location.slug, file, inNavigation: true })
      continue
    }
    diagnostics.push({
      severity: mode === 'strict' ? 'error' : 'warning',
      file: 'docs.json',
      rule: 'missing-page',
      message: `Navigation page "${location.slug}" has no file; expected ${location.slug}.mdx`,
    })
  }
  const unlisted = [...files.keys()]
    .filter((path) => path.endsWith('.mdx') && !isSnippetPath(path))
    .map((path) => path.slice(0, -'.mdx'.length))
    .filter((slug) => !seen.has(slug))
    .sort()
  for (const slug of unlisted) pages.push({ slug, file: `${slug}.mdx`, inNavigation: false })
  // `guide/index` is served at `/guide/`, where a page `guide` already is: that one keeps the URL.
  const slugs = new Set(pages.map((page) => page.slug))
  const kept = pages.filter((page) => {
    const folder = page.slug.endsWith('/index') ? page.slug.slice(0, -'/index'.length) : undefined
    if (folder === undefined || !slugs.has(folder)) return true
    diagnostics.push({
      severity: mode === 'strict' ? 'error' : 'warning',
      file: page.file,
      rule: 'page-conflict',
      message: `Unexpected ${page.file} beside ${pages.find((other) => other.slug === folder)?.file}: both are the page at /${folder}/, which the latter keeps; rename or remove one`,
    })
    return false
  })
  return { pages: kept, diagnostics }
}
