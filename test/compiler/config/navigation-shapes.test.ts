/**
 * One fixture per navigation shape of the format (fixtures/navigation/<shape>/): tabs, anchors,
 * dropdowns, products, versions, languages, menu, nested groups, and those nested in one another.
 * Each validates strictly without a diagnostic, normalises to the tree pinned in `expected.txt`
 * (UPDATE=1 to regenerate), builds, and every page of its navigation is reachable from the home
 * page through sidebars, tab bars and switchers alone.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { buildSite } from '../../../compiler/build.js'
import type { NavItem, NavigationTree } from '../../../compiler/config/types.js'
import { validateSite } from '../../../compiler/config/validate-site.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { readFixture } from '../build/helpers.js'
import { homeFile, reachablePages } from '../theme/reachability.js'

export const shapesDir = fromPackageRoot('test', 'compiler', 'config', 'fixtures', 'navigation')
export const shapes = readdirSync(shapesDir)

/** The tree as a reviewer reads it: each sidebar with its path of sections, then its outline. */
export function outline(tree: NavigationTree): string {
  const lines: string[] = []
  const item = (entry: NavItem, depth: number) => {
    const indent = '  '.repeat(depth)
    if (entry.kind === 'page') {
      lines.push(`${indent}page ${entry.slug}${entry.hidden ? ' (hidden)' : ''}`)
      return
    }
    const facts = [
      entry.expanded && 'expanded',
      entry.hidden && 'hidden',
      entry.icon && `icon=${entry.icon}`,
      entry.root && `root=${entry.root}`,
      entry.tag && `tag=${entry.tag}`,
    ].filter(Boolean)
    lines.push(`${indent}group ${JSON.stringify(entry.label)}${facts.length ? ` (${facts.join(', ')})` : ''}`)
    for (const child of entry.items) item(child, depth + 1)
  }
  tree.tabs.forEach((tab, index) => {
    const path = tab.path
      .map((section) => {
        const facts = [section.icon && `icon=${section.icon}`, section.locale && `locale=${section.locale}`]
        const extra = facts.filter(Boolean).join(', ')
        return `${section.kind} ${JSON.stringify(section.label)}${extra ? ` (${extra})` : ''}`
      })
      .join(' > ')
    lines.push(`sidebar ${index}: ${path || '(root)'}${tab.href ? ` → ${tab.href}` : ''}`)
    for (const entry of tab.items) item(entry, 1)
  })
  for (const link of tree.global.anchors)
    lines.push(`global anchor ${JSON.stringify(link.label)} → ${link.href}`)
  lines.push(`pages: ${tree.pages.map((page) => `${page.slug}@${page.tab}`).join(' ')}`)
  return `${lines.join('\n')}\n`
}

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
      listed.filter((slug) => !reached.has(slug)),
      [],
      `pages of ${shape} no navigation link reaches`,
    )
  })
}
