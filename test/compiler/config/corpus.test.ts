/**
 * The six real sites in ../shared/corpus, written for a hosted platform: strict validation reports
 * precisely what is not supported here in docs.json (pinned in fixtures/corpus/<site>.strict.txt;
 * UPDATE=1 to regenerate), and a lenient load succeeds with every page of their navigation. Page
 * front matter wording belongs to compiler/content and is pinned in its tests; here each page problem
 * only has to name its place.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { isOperationReference } from '../../../compiler/config/navigation.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { validateSite } from '../../../compiler/validate-site.js'
import { readSiteFiles } from '../../../lib/site-dir.js'
import { corpusRoot, corpusSites } from '../../corpus.js'

const sites = corpusSites
const expectedDir = fromPackageRoot('test', 'compiler', 'config', 'fixtures', 'corpus')

/** Page slugs as the raw JSON lists them, found without our loader: every string inside a `pages` list. */
function slugsInNavigation(value: unknown, inPages = false, into = new Set<string>()): Set<string> {
  if (typeof value === 'string' && inPages) {
    // OpenAPI operations (`POST /v1/sessions`) are generated pages, not files.
    if (!isOperationReference(value)) into.add(value.replace(/^\//, ''))
  } else if (Array.isArray(value)) for (const item of value) slugsInNavigation(item, inPages, into)
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) slugsInNavigation(child, key === 'pages', into)
  }
  return into
}

for (const site of sites) {
  const dir = join(corpusRoot, site)
  test(`corpus ${site}: strict diagnostics are the pinned ones`, async () => {
    assert.ok(existsSync(dir), `corpus site missing: ${dir} (set DOCS_CORPUS to the corpus folder)`)
    const { files } = await readSiteFiles(dir)
    const { diagnostics: all } = validateSite(files, { mode: 'strict' })
    const diagnostics = all.filter((diagnostic) => diagnostic.file.endsWith('.json'))
    for (const page of all.filter((diagnostic) => !diagnostic.file.endsWith('.json'))) {
      assert.ok(page.line !== undefined && page.rule && page.message, formatDiagnostic(page))
    }
    const actual = diagnostics
      .map((diagnostic) => `${diagnostic.severity} ${formatDiagnostic(diagnostic)}\n`)
      .join('')
    const expectedFile = join(expectedDir, `${site}.strict.txt`)
    if (process.env.UPDATE === '1') writeFileSync(expectedFile, actual)
    assert.equal(actual, readFileSync(expectedFile, 'utf8'))
    assert.ok(!actual.includes('anyOf'))
  })

  test(`corpus ${site}: lenient load succeeds and lists every page`, async () => {
    const { files } = await readSiteFiles(dir)
    const result = validateSite(files, { mode: 'lenient' })
    const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error')
    assert.deepEqual(errors.map(formatDiagnostic), [])
    assert.ok(result.config)
    const raw = JSON.parse(readFileSync(join(dir, 'docs.json'), 'utf8')) as { navigation: unknown }
    const listed = slugsInNavigation(raw.navigation)
    const loaded = new Set(result.navigation?.pages.map((page) => page.slug))
    assert.deepEqual([...loaded].sort(), [...listed].sort())
    for (const slug of loaded) assert.ok(result.pageFiles.has(slug), `page file for ${slug}`)
  })
}
