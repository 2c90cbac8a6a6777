/**
 * Root stylesheets (`style.css`, …) are published scoped to the article: a fixture with its expected
 * output, and a build that serves the scoped file in place of the author's.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { buildSite } from '../../../compiler/build.js'
import { assetVersion } from '../../../compiler/content/asset-version.js'
import {
  type StylesheetWarning,
  scopeRootStylesheet,
  scopeSelectorList,
} from '../../../compiler/theme/scope-stylesheet.js'
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
  // An escape continues a name: a Tailwind `dark:` class is no `.dark` ancestor.
  assert.equal(scopeSelectorList('.dark\\:hidden'), ':where(.d-prose) .dark\\:hidden')
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
  // Linked with the version of the scoped bytes, the ones the site serves.
  const version = assetVersion(built.files.get('style.css')!)
  assert.ok(text(built.files, 'index.html').includes(`<link rel="stylesheet" href="style.css?v=${version}">`))
})

test('an @scope rule keeps its root inside the article, whatever root it names', () => {
  assert.equal(
    scopeRootStylesheet(
      [
        '@scope (html) { .d-header { display: none } }',
        '@scope { .d-sidebar { display: none } }',
        '@scope (.card, body) to (.nested) { p { margin: 0 } }',
        '@\\73 cope (:root) { nav { display: none } }',
        '@media print { @scope (html[data-theme=dark] .hero) { :scope { color: red } } }',
        '@scope (.a) (.b) { p { color: red } }',
      ].join('\n'),
    ),
    [
      '@scope (:where(.d-prose)) { .d-header { display: none } }',
      '@scope (:where(.d-prose)) { .d-sidebar { display: none } }',
      '@scope (:where(.d-prose) .card, :where(.d-prose)) to (.nested) { p { margin: 0 } }',
      '@scope (:where(.d-prose)) { nav { display: none } }',
      '@media print {',
      '@scope (html[data-theme=dark] :where(.d-prose) .hero) { :scope { color: red } }',
      '}',
      '',
    ].join('\n'),
  )
})

test('a nested rule that reaches past its parent with & in a pseudo-class is kept inside the article', () => {
  assert.equal(
    scopeRootStylesheet(
      [
        '.tag { color: red; :not(&) { display: none } & .ok, .also-ok, > .child { margin: 0 } }',
        '.tag { :has(&) .d-header, .x &, :not(&)::before { display: none } }',
        '.tag { @media (min-width: 1px) { :root:has(&) nav { display: none } } }',
        '.tag { @scope (:has(&)) { .d-sidebar { display: none } } @scope (.inner) { p { color: red } } }',
        '.tag { @unknown-rule { nav { display: none } } --custom: { :not(&) {} }; }',
      ].join('\n'),
    ),
    [
      ':where(.d-prose) .tag { color: red; :where(.d-prose) :is(:not(&)) { display: none } & .ok, .also-ok, > .child { margin: 0 } }',
      ':where(.d-prose) .tag { :where(.d-prose) :is(:has(&) .d-header), .x &, :where(.d-prose) :is(:not(&))::before { display: none } }',
      ':where(.d-prose) .tag { @media (min-width: 1px) { :where(.d-prose) :is(:root:has(&) nav) { display: none } } }',
      ':where(.d-prose) .tag { @scope (:where(.d-prose) :is(:has(&))) { .d-sidebar { display: none } } @scope (.inner) { p { color: red } } }',
      ':where(.d-prose) .tag {  --custom: { :not(&) {} }; }',
      '',
    ].join('\n'),
  )
})

test('blocks end where a browser ends them, so no copied text turns into an unscoped rule', () => {
  assert.equal(
    scopeRootStylesheet(
      [
        // An unquoted url() holds braces and comment openers: the block closes after it.
        '.a { background: url(x{) } .d-header { display: none }',
        '.b { background: url(/*) } nav { display: none } /* */',
        // A `}` inside parentheses closes nothing.
        '.c { --v: ( } .d-sidebar { display: none } ) }',
        // An escaped at-keyword is the at-rule it spells.
        '@\\6d edia all { .d-toc { display: none } }',
        '@\\69mport url("https://example.com/shell.css");',
        // A selector with a stray closer or a lone backslash is invalid: dropped, never copied.
        '.e:is(]), .d-header { display: none }',
        '@layer x\\',
        '; .f { color: red }',
      ].join('\n'),
    ),
    [
      ':where(.d-prose) .a { background: url(x{) }',
      ':where(.d-prose) .d-header { display: none }',
      ':where(.d-prose) .b { background: url(/*) }',
      ':where(.d-prose) nav { display: none }',
      ':where(.d-prose) .c { --v: ( } .d-sidebar { display: none } ) }',
      '@\\6d edia all {',
      ':where(.d-prose) .d-toc { display: none }',
      '}',
      ':where(.d-prose) .f { color: red }',
      '',
    ].join('\n'),
  )
})

test('a block at-rule that could hold unscoped rules is left out, with a warning at its line', async () => {
  const encoder = new TextEncoder()
  const built = await buildSite(
    new Map([
      ['docs.json', encoder.encode(JSON.stringify({ name: 'Scoped', navigation: { pages: ['index'] } }))],
      ['index.mdx', encoder.encode('---\ntitle: Home\n---\nHello.\n')],
      [
        'style.css',
        encoder.encode(
          '.tag { color: red }\n\n@future-block { .d-header { display: none } }\n.ok { margin: 0 }\n',
        ),
      ],
    ]),
    { mode: 'strict', workers: 1 },
  )
  assert.deepEqual(
    built.diagnostics.map(({ file, line, column, rule, severity }) => ({
      file,
      line,
      column,
      rule,
      severity,
    })),
    [{ file: 'style.css', line: 3, column: 1, rule: 'stylesheet-rule-dropped', severity: 'warning' }],
  )
  assert.match(built.diagnostics[0]!.message, /^Unexpected `@future-block` block, expected a style rule/)
  assert.equal(
    text(built.files, 'style.css'),
    ':where(.d-prose) .tag { color: red }\n:where(.d-prose) .ok { margin: 0 }\n',
  )
})

test('blocks nested past 64 levels are left out with one warning, however deep they go', () => {
  const warnings: StylesheetWarning[] = []
  const deep = `${'.a{'.repeat(20_000)}${'}'.repeat(20_000)}\n.after { color: red }`
  const scoped = scopeRootStylesheet(deep, [], warnings)
  assert.ok(scoped.startsWith(`:where(.d-prose) .a {${'.a {'.repeat(63)}.a {}`), scoped.slice(0, 300))
  assert.ok(scoped.endsWith(':where(.d-prose) .after { color: red }\n'))
  assert.equal(warnings.length, 1)
  assert.match(warnings[0]!.message, /^Unexpected block nested more than 64 levels deep/)
})
