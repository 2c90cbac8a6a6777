/**
 * Fixture tests: every folder of test/compiler/fixtures/ holds `input.mdx` and the expected
 * `output.html` (the rendered body) and `diagnostics.txt`. Other files in the folder are site files
 * (snippets, images). Folders named `strict-…` render in strict mode, the rest leniently.
 * Regenerate on purpose with `UPDATE=1 node test/run.js content/fixtures`.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { renderPage } from '../../../compiler/content/render-page.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { createHighlighter } from '../../../compiler/highlight/index.js'

const root = fromPackageRoot('test', 'compiler', 'fixtures')
const update = process.env.UPDATE === '1'
const EXPECTED = new Set(['input.mdx', 'output.html', 'diagnostics.txt', 'markdown.md'])

function siteFiles(folder: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>()
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry)
      if (statSync(path).isDirectory()) walk(path)
      else if (!(dir === folder && EXPECTED.has(entry))) files.set(relative(folder, path), readFileSync(path))
    }
  }
  walk(folder)
  return files
}

const cases = readdirSync(root)
  .filter((name) => existsSync(join(root, name, 'input.mdx')))
  .sort()

test('there are fixtures to check', () => {
  assert.ok(cases.length >= 20, `expected at least 20 fixture folders in ${root}, found ${cases.length}`)
})

for (const name of cases) {
  test(`fixture ${name}`, async () => {
    const folder = join(root, name)
    const files = siteFiles(folder)
    const page = await renderPage({
      file: 'guide/page.mdx',
      slug: 'guide/page',
      source: readFileSync(join(folder, 'input.mdx'), 'utf8'),
      files,
      pageSlugs: new Set(['index', 'quickstart', 'guide/page', 'guide/other', 'api/reference']),
      mode: name.startsWith('strict-') ? 'strict' : 'lenient',
      highlighter: await createHighlighter(),
    })
    const actual = {
      'output.html': `${page.html}\n`,
      'diagnostics.txt': page.diagnostics
        .map((d) => `${d.severity} ${d.rule} ${formatDiagnostic(d)}\n`)
        .join(''),
      'markdown.md': page.markdown,
    }
    for (const [file, content] of Object.entries(actual)) {
      const path = join(folder, file)
      // markdown.md is checked only where a fixture opts in by having one.
      if (file === 'markdown.md' && !existsSync(path) && !name.startsWith('markdown-')) continue
      if (update) writeFileSync(path, content)
      assert.equal(content, existsSync(path) ? readFileSync(path, 'utf8') : '', `${name}/${file} differs`)
    }
  })
}
