/**
 * The change report's comparison: a preview's built site against the live one. Pure: two sites and
 * their diagnostics in, the report's findings out (the screenshots and URLs are added by the caller).
 *
 * - pages: added, removed, and changed when their rendered article differs (not their source bytes),
 *   with a unified diff of the Markdown export;
 * - links: every site-internal link of every page, resolved as a browser would, that reaches no page,
 *   file or redirect (or a page without the `#anchor`): those only the preview has are introduced,
 *   those only the live site has are fixed;
 * - warnings the preview's build has that the live one's did not (broken links are under links);
 * - removed pages no redirect covers, with the `redirects` entry to add (to the page it was renamed
 *   to, when an added page has its content);
 * - navigation: pages listed, unlisted, moved to another group or retitled.
 */
import type { Diagnostic } from '../../compiler/diagnostics.js'
import { unifiedDiff } from '../../lib/unified-diff.js'
import type { BuiltPage, BuiltSite, ListedPage } from './built-site.js'

export interface PageRef {
  slug: string
  title: string
}

export interface LinkProblem {
  page: string
  href: string
  target: string
  problem: 'missing-page' | 'missing-anchor'
}

export interface NavigationChange {
  change: 'added' | 'removed' | 'moved' | 'retitled'
  slug: string
  title: string
  before: string | null
  after: string | null
}

export interface SiteComparison {
  pages: {
    added: PageRef[]
    removed: PageRef[]
    changed: (PageRef & { diff: string })[]
    unchanged: number
  }
  links: { introduced: LinkProblem[]; fixed: LinkProblem[] }
  warnings: { introduced: Diagnostic[] }
  missingRedirects: (PageRef & {
    renamedTo: string | null
    redirect: { source: string; destination: string }
  })[]
  navigation: NavigationChange[]
}

const origin = 'https://site.invalid'
const pageUrl = (slug: string) => (slug === 'index' ? '/' : `/${slug}/`)

/** Where an internal link leads and what is wrong there, or undefined when it is fine or external. */
function linkProblem(site: BuiltSite, page: BuiltPage, href: string): LinkProblem | undefined {
  let url: URL
  try {
    url = new URL(href, `${origin}${pageUrl(page.slug)}`)
  } catch {
    return undefined
  }
  if (url.origin !== origin) return undefined
  let path: string
  try {
    path = decodeURIComponent(url.pathname)
  } catch {
    path = url.pathname
  }
  const target = `${path}${url.hash}`
  const trimmed = path.replace(/^\/+/, '').replace(/\/+$/, '')
  const slug =
    trimmed === '' ? 'index' : trimmed.replace(/\/index\.html$/, '').replace(/^index\.html$/, 'index')
  const targetPage = site.pages.get(slug)
  if (targetPage) {
    const anchor = url.hash.slice(1)
    if (anchor === '') return undefined
    let id = anchor
    try {
      id = decodeURIComponent(anchor)
    } catch {}
    return targetPage.ids.has(id) ? undefined : { page: page.slug, href, target, problem: 'missing-anchor' }
  }
  if (site.files.has(trimmed)) return undefined
  if (site.redirects.match(`/${trimmed}`)) return undefined
  return { page: page.slug, href, target, problem: 'missing-page' }
}

export function linkProblems(site: BuiltSite): LinkProblem[] {
  const problems: LinkProblem[] = []
  for (const page of site.pages.values()) {
    const seen = new Set<string>()
    for (const href of page.hrefs) {
      if (seen.has(href)) continue
      seen.add(href)
      const problem = linkProblem(site, page, href)
      if (problem) problems.push(problem)
    }
  }
  return problems
}

const linkKey = (link: LinkProblem) => `${link.page}\n${link.target}\n${link.problem}`
const warningKey = (diagnostic: Diagnostic) => `${diagnostic.file}\n${diagnostic.rule}\n${diagnostic.message}`

/** Rules whose findings the report lists elsewhere. */
const listedElsewhere = new Set(['broken-link'])

/** How much of `a`'s lines `b` holds (0..1), to tell a renamed page among the added ones. */
function likeness(a: string, b: string): number {
  const lines = (text: string) =>
    new Set(
      text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    )
  const left = lines(a)
  const right = lines(b)
  if (left.size === 0 || right.size === 0) return 0
  let shared = 0
  for (const line of left) if (right.has(line)) shared++
  return shared / Math.max(left.size, right.size)
}

const placeOf = (page: ListedPage) => [...page.path, page.title].join(' › ')

function navigationChanges(
  live: ListedPage[] | undefined,
  preview: ListedPage[] | undefined,
): NavigationChange[] {
  if (!live || !preview) return []
  const before = new Map(live.map((page) => [page.slug, page]))
  const after = new Map(preview.map((page) => [page.slug, page]))
  const changes: NavigationChange[] = []
  for (const page of preview) {
    const old = before.get(page.slug)
    if (!old) {
      changes.push({
        change: 'added',
        slug: page.slug,
        title: page.title,
        before: null,
        after: placeOf(page),
      })
    } else if (old.path.join('\n') !== page.path.join('\n')) {
      changes.push({
        change: 'moved',
        slug: page.slug,
        title: page.title,
        before: placeOf(old),
        after: placeOf(page),
      })
    } else if (old.title !== page.title) {
      changes.push({
        change: 'retitled',
        slug: page.slug,
        title: page.title,
        before: placeOf(old),
        after: placeOf(page),
      })
    }
  }
  for (const page of live) {
    if (!after.has(page.slug))
      changes.push({
        change: 'removed',
        slug: page.slug,
        title: page.title,
        before: placeOf(page),
        after: null,
      })
  }
  return changes
}

/** The nearest page above a removed one that the preview still has, else the home page. */
function nearestParent(site: BuiltSite, slug: string): string {
  const parts = slug.split('/')
  while (parts.length > 1) {
    parts.pop()
    if (site.pages.has(parts.join('/'))) return `/${parts.join('/')}`
  }
  return '/'
}

export function compareSites(
  live: { site: BuiltSite; diagnostics: readonly Diagnostic[] } | undefined,
  preview: { site: BuiltSite; diagnostics: readonly Diagnostic[] },
): SiteComparison {
  const livePages = live?.site.pages ?? new Map<string, BuiltPage>()
  const previewPages = preview.site.pages
  const ref = (page: BuiltPage): PageRef => ({ slug: page.slug, title: page.title })
  const added = [...previewPages.values()].filter((page) => !livePages.has(page.slug))
  const removed = [...livePages.values()].filter((page) => !previewPages.has(page.slug))
  const changed: SiteComparison['pages']['changed'] = []
  let unchanged = 0
  for (const page of previewPages.values()) {
    const old = livePages.get(page.slug)
    if (!old) continue
    if (old.content === page.content) {
      unchanged++
      continue
    }
    const name = `${page.slug}.md`
    changed.push({ ...ref(page), diff: unifiedDiff(name, old.markdown, page.markdown) })
  }

  const liveLinks = new Map((live ? linkProblems(live.site) : []).map((link) => [linkKey(link), link]))
  const previewLinks = new Map(linkProblems(preview.site).map((link) => [linkKey(link), link]))
  const introduced = [...previewLinks].filter(([key]) => !liveLinks.has(key)).map(([, link]) => link)
  const fixed = [...liveLinks].filter(([key]) => !previewLinks.has(key)).map(([, link]) => link)

  const liveWarnings = new Set((live?.diagnostics ?? []).map(warningKey))
  const warnings = preview.diagnostics.filter(
    (diagnostic) =>
      diagnostic.severity === 'warning' &&
      !listedElsewhere.has(diagnostic.rule) &&
      !liveWarnings.has(warningKey(diagnostic)),
  )

  const missingRedirects: SiteComparison['missingRedirects'] = []
  for (const page of removed) {
    if (preview.site.redirects.match(`/${page.slug}`)) continue
    let renamedTo: string | null = null
    let best = 0.6
    for (const candidate of added) {
      const score = likeness(page.markdown, candidate.markdown)
      if (score >= best) {
        best = score
        renamedTo = candidate.slug
      }
    }
    missingRedirects.push({
      ...ref(page),
      renamedTo,
      redirect: {
        source: `/${page.slug}`,
        destination: renamedTo === null ? nearestParent(preview.site, page.slug) : `/${renamedTo}`,
      },
    })
  }

  const bySlug = (a: { slug: string }, b: { slug: string }) => a.slug.localeCompare(b.slug)
  const byPlace = (a: LinkProblem, b: LinkProblem) =>
    a.page.localeCompare(b.page) || a.target.localeCompare(b.target)
  return {
    pages: {
      added: added.map(ref).sort(bySlug),
      removed: removed.map(ref).sort(bySlug),
      changed: changed.sort(bySlug),
      unchanged,
    },
    links: { introduced: introduced.sort(byPlace), fixed: fixed.sort(byPlace) },
    warnings: { introduced: warnings },
    missingRedirects: missingRedirects.sort(bySlug),
    navigation: navigationChanges(live?.site.navigation, preview.site.navigation),
  }
}
