/**
 * Renders every page of one corpus site (../shared/corpus/<site>) in lenient mode and compares its
 * diagnostics with test/compiler/content/corpus-warnings/<site>.txt: no errors, and exactly the
 * warnings we expect (regenerate on purpose with UPDATE=1). One test file per site, so node's runner
 * spreads the sites over the cores.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { renderPage } from '../../../compiler/content/render-page.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { decodeUtf8 } from '../../../compiler/files.js'
import { createHighlighter } from '../../../compiler/highlight/index.js'
import { corpusRoot } from '../../corpus.js'

const CORPUS = corpusRoot

function readSite(root: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>()
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry)
      if (statSync(path).isDirectory()) walk(path)
      else files.set(relative(root, path).split('\\').join('/'), readFileSync(path))
    }
  }
  walk(root)
  return files
}

export function corpusTest(site: string): void {
  const root = join(CORPUS, site)
  test(`every page of the ${site} corpus renders leniently without errors`, {}, async () => {
    const files = readSite(root)
    const pages = [...files.keys()]
      .filter((path) => /\.mdx?$/.test(path) && !/^_?snippets\//.test(path))
      .sort()
    const pageSlugs = new Set(pages.map((path) => path.replace(/\.mdx?$/, '')))
    const highlighter = await createHighlighter()
    const lines: string[] = []
    for (const file of pages) {
      const source = decodeUtf8(files.get(file) ?? new Uint8Array())
      assert.ok(source !== undefined, `${file} is not UTF-8`)
      const page = await renderPage({
        file,
        slug: file.replace(/\.mdx?$/, ''),
        source,
        files,
        pageSlugs,
        mode: 'lenient',
        highlighter,
      })
      assert.ok(page.html.length > 0 || page.markdown.trim() === '', `${file} rendered no HTML`)
      // The result goes into the build cache as JSON; it must survive the round trip unchanged.
      assert.deepEqual(JSON.parse(JSON.stringify(page)), page)
      for (const diagnostic of page.diagnostics) {
        lines.push(`${diagnostic.severity} ${diagnostic.rule} ${formatDiagnostic(diagnostic)}`)
      }
    }
    assert.deepEqual(
      lines.filter((line) => line.startsWith('error')),
      [],
      `${site}: a lenient render must not report errors`,
    )
    const expectedPath = fromPackageRoot('test', 'compiler', 'content', 'corpus-warnings', `${site}.txt`)
    const actual = lines.map((line) => `${line}\n`).join('')
    if (process.env.UPDATE === '1') writeFileSync(expectedPath, actual)
    assert.equal(actual, readFileSync(expectedPath, 'utf8'), `${site}: warnings differ from ${expectedPath}`)
  })
}
