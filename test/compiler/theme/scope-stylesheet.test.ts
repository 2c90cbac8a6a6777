/**
 * Root stylesheets (`style.css`, …) are published scoped to the article: a fixture with its expected
 * output, and a build that serves the scoped file in place of the author's.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { buildSite } from '../../../compiler/build.js'
import { scopeRootStylesheet, scopeSelectorList } from '../../../compiler/theme/scope-stylesheet.js'
import { text } from '../build/helpers.js'

const fixture = (name: string) =>
  readFileSync(fromPackageRoot('test', 'compiler', 'theme', 'fixtures', 'root-stylesheet', name), 'utf8')

test('a root stylesheet is rewritten to style only the article', () => {
  assert.equal(scopeRootStylesheet(fixture('input.css'), ['fonts.css', 'style.css']), fixture('expected.css'))
})

test('selectors keep the document and colour mode as ancestors of the article', () => {
  assert.equal(scopeSelectorList('.x'), ':where(.d-prose) .x')
  assert.equal(scopeSelectorList('body'), ':where(.d-prose)')
  assert.equal(scopeSelectorList('[data-theme=dark] .x'), '[data-theme=dark] :where(.d-prose) .x')
  assert.equal(scopeSelectorList(':root[data-theme="dark"]'), ':root[data-theme="dark"] :where(.d-prose)')
  assert.equal(scopeSelectorList('.darkish .x'), ':where(.d-prose) .darkish .x')
  assert.equal(scopeSelectorList('a[title="a, b"]'), ':where(.d-prose) a[title="a, b"]')
})

test('a build publishes the scoped root stylesheet, never the author bytes', async () => {
  const encoder = new TextEncoder()
  const built = await buildSite(
    new Map([
      ['docs.json', encoder.encode(JSON.stringify({ name: 'Scoped', navigation: { pages: ['index'] } }))],
      ['index.mdx', encoder.encode('---\ntitle: Home\n---\nHello.\n')],
      ['style.css', encoder.encode('nav, .d-sidebar { display: none }\n.tag { color: red }\n')],
    ]),
    { mode: 'strict', workers: 1 },
  )
  assert.deepEqual(built.diagnostics, [])
  assert.equal(
    text(built.files, 'style.css'),
    ':where(.d-prose) nav, :where(.d-prose) .d-sidebar { display: none }\n:where(.d-prose) .tag { color: red }\n',
  )
  assert.match(text(built.files, 'index.html'), /<link rel="stylesheet" href="[^"]*style\.css">/)
})
