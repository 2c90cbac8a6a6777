/**
 * The six real sites in ../shared/corpus build in lenient mode with every navigation page rendered
 * and no error, every navigation page reachable from the home page through sidebars, tab bars and
 * switchers (measured on the built HTML, the figure printed), and no broken link that a redirect
 * covers, no unknown component and no page lost to a limit. Cross-page `#anchor` links that name no
 * id on their page are counted and printed. Their warnings are pinned in expected/<site>.txt;
 * regenerate on purpose with UPDATE=1.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { loadConfig, siteRedirects } from '../../../compiler/config/index.js'
import { readFrontMatter } from '../../../compiler/content/frontmatter.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { pageOutputPath } from '../../../compiler/theme/urls.js'
import { corpusSites } from '../../corpus.js'
import { builtCorpusSite } from '../../corpus-build.js'
import { homeFile, reachablePages } from '../theme/reachability.js'

const sites = corpusSites

/** Links from one page to an `#anchor` on another page of the site, and those naming no id there. */
function crossPageAnchors(files: ReadonlyMap<string, Uint8Array>): { total: number; broken: string[] } {
  const decoder = new TextDecoder()
  const ids = new Map<string, Set<string>>()
  const idsOf = (path: string): Set<string> | undefined => {
    let found = ids.get(path)
    if (!found) {
      const bytes = files.get(path)
      if (!bytes) return undefined
      found = new Set([...decoder.decode(bytes).matchAll(/\sid="([^"]*)"/g)].map((match) => match[1]!))
      ids.set(path, found)
    }
    return found
  }
  let total = 0
  const broken: string[] = []
  for (const [path, bytes] of files) {
    if (!path.endsWith('index.html')) continue
    for (const [, href] of decoder.decode(bytes).matchAll(/<a [^>]*href="([^"#:]*#[^"]+)"/g)) {
      const url = new URL(href!.replaceAll('&amp;', '&'), `http://site/${path}`)
      const target = decodeURIComponent(url.pathname.slice(1))
        .replace(/\/?$/, '/index.html')
        .replace(/^\/index\.html$/, 'index.html')
      if (target === path) continue
      const targetIds = idsOf(target)
      if (!targetIds) continue
      total++
      const id = decodeURIComponent(url.hash.slice(1))
      if (!targetIds.has(id)) broken.push(`${path} → ${target}#${id}`)
    }
  }
  return { total, broken }
}

for (const site of sites) {
  test(`corpus site ${site} builds leniently with every navigation page and no error`, {}, async (t) => {
    const { sources: files, result } = await builtCorpusSite(site)
    const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error')
    assert.deepEqual(errors.map(formatDiagnostic), [])
    const navigation = loadConfig(files, { mode: 'lenient' }).navigation!
    for (const location of navigation.pages) {
      const hasSource = files.has(`${location.slug}.mdx`) || files.has(`${location.slug}.md`)
      if (hasSource)
        assert.ok(result.files.has(pageOutputPath(location.slug)), `${location.slug} is rendered`)
    }
    // Reachable by a reader: every page of the navigation that has a file and shows in a sidebar
    // (front matter `hidden` keeps a page out; `url` makes its entry a link out, checked below).
    const decoder = new TextDecoder()
    const reached = reachablePages(result.files, homeFile(result.files))
    const navigable: string[] = []
    const linkingOut: string[] = []
    for (const location of navigation.pages) {
      const file = [`${location.slug}.mdx`, `${location.slug}.md`].find((path) => files.has(path))
      if (!file || location.hidden) continue
      const front = readFrontMatter(decoder.decode(files.get(file)), file, 'lenient').data
      if (front?.hidden === true) continue
      if (typeof front?.url === 'string') linkingOut.push(front.url)
      else navigable.push(location.slug)
    }
    const unreachable = navigable.filter((slug) => !reached.has(pageOutputPath(slug)))
    const share = ((100 * (navigable.length - unreachable.length)) / navigable.length).toFixed(1)
    t.diagnostic(
      `${site}: ${navigable.length - unreachable.length}/${navigable.length} navigation pages reachable from a sidebar (${share}%), ${linkingOut.length} linking out`,
    )
    assert.deepEqual(unreachable, [])
    const built = navigation.pages.filter((location) => result.files.has(pageOutputPath(location.slug)))
    t.diagnostic(`${site}: ${built.length}/${navigation.pages.length} navigation entries built`)
    assert.equal(built.length, navigation.pages.length, 'every navigation entry is built')
    const unknown = result.diagnostics.filter((diagnostic) => diagnostic.rule === 'unknown-component')
    assert.deepEqual(unknown.map(formatDiagnostic), [], 'no unknown component')
    const limited = result.diagnostics.filter((diagnostic) => /-limit$/.test(diagnostic.rule))
    assert.deepEqual(limited.map(formatDiagnostic), [], 'no page lost to a limit')
    const anchors = crossPageAnchors(result.files)
    t.diagnostic(
      `${site}: ${anchors.broken.length}/${anchors.total} cross-page #anchor links name no id on their page${anchors.broken.length ? `: ${anchors.broken.slice(0, 20).join(', ')}` : ''}`,
    )
    const html = [...result.files].filter(([path]) => path.endsWith('.html'))
    for (const url of linkingOut) {
      const escaped = url.replaceAll('&', '&amp;')
      assert.ok(
        html.some(([, bytes]) => decoder.decode(bytes).includes(`href="${escaped}"`)),
        url,
      )
    }
    // A link that a redirect covers is never reported broken.
    const redirects = siteRedirects(files)
    const covered = result.diagnostics.filter((diagnostic) => {
      const target = /\(no page (.*)\)$/.exec(diagnostic.message)?.[1]
      return diagnostic.rule === 'broken-link' && target !== undefined && redirects.match(`/${target}`)
    })
    assert.deepEqual(covered.map(formatDiagnostic), [])

    for (const required of ['llms.txt', 'llms-full.txt', '404.html', 'robots.txt', '_search/index.js'])
      assert.ok(result.files.has(required), required)

    const warnings = `${result.diagnostics.map((diagnostic) => `${diagnostic.rule} ${formatDiagnostic(diagnostic)}`).join('\n')}\n`
    const expectedPath = fromPackageRoot('test', 'compiler', 'build', 'expected', `${site}.txt`)
    if (process.env.UPDATE === '1') writeFileSync(expectedPath, warnings)
    assert.equal(warnings, readFileSync(expectedPath, 'utf8'))
  })
}
