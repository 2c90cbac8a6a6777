/**
 * One fixture per navigation shape of the format (fixtures/navigation/<shape>/): tabs, anchors,
 * dropdowns, products, versions, languages, menu, nested groups, and those nested in one another.
 * Each validates strictly without a diagnostic, normalises to the tree pinned in `expected.txt`
 * (UPDATE=1 to regenerate), builds, and every page of its navigation is reachable from the home
 * page through sidebars, tab bars and switchers alone.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { pageOutputPath } from '../../../compiler/theme/urls.js'
import { validateSite } from '../../../compiler/validate-site.js'
import { readFixture } from '../build/helpers.js'
import { homeFile, reachablePages } from '../theme/reachability.js'
import { outline, shapes, shapesDir } from './navigation-shapes.js'

for (const shape of shapes) {
  test(`navigation shape ${shape}: strict, expected tree, every page reachable`, async () => {
    const files = readFixture(join(shapesDir, shape))
    files.delete('expected.txt')
    const validation = validateSite(files, { mode: 'strict' })
    assert.deepEqual(validation.diagnostics.map(formatDiagnostic), [])
    const tree = validation.navigation
    assert.ok(tree)
    const expectedFile = join(shapesDir, shape, 'expected.txt')
    if (process.env.UPDATE === '1') writeFileSync(expectedFile, outline(tree))
    assert.equal(outline(tree), readFileSync(expectedFile, 'utf8'))

    const built = await buildSite(files, { mode: 'strict' })
    assert.deepEqual(built.diagnostics.map(formatDiagnostic), [])
    const reached = reachablePages(built.files, homeFile(built.files))
    const listed = tree.pages.filter((page) => !page.hidden).map((page) => page.slug)
    assert.deepEqual(
      listed.filter((slug) => !reached.has(pageOutputPath(slug))),
      [],
      `pages of ${shape} no navigation link reaches`,
    )
  })
}

test('pages under a navigation kind validate does not know are still checked', () => {
  const encoder = new TextEncoder()
  const docs = {
    name: 'Future',
    navigation: { pages: ['index'], sections: [{ section: 'New', pages: ['missing'] }] },
  }
  const files = new Map([
    ['docs.json', encoder.encode(JSON.stringify(docs, null, 2))],
    ['index.mdx', encoder.encode('---\ntitle: Home\n---\n')],
  ])
  const messages = validateSite(files, { mode: 'strict' }).diagnostics.map((diagnostic) => diagnostic.message)
  assert.ok(
    messages.some((message) => message.startsWith('page "missing" not found')),
    messages.join('\n'),
  )
  assert.ok(
    messages.some((message) => message.startsWith('unknown key "sections"')),
    messages.join('\n'),
  )
})

test('a hidden section is left out of the tab bar of other sections, and shown inside itself', async () => {
  const built = await buildSite(readFixture(join(shapesDir, 'hidden-sections')), { mode: 'strict' })
  const tabBar = (path: string) =>
    /<nav class="d-tabs"[\s\S]*?<\/nav>/.exec(new TextDecoder().decode(built.files.get(path)))?.[0] ?? ''
  assert.doesNotMatch(tabBar('index.html'), /Internal/)
  assert.match(tabBar('internal/runbook/index.html'), /aria-current="true">Internal</)
})
