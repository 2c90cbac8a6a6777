/**
 * In Chromium, on a page `docsctl dev` builds: a root stylesheet and Tailwind classes that try every way
 * out of the content (`@scope (html)`, a nested `:has(&)`, an escaped `@scope`, an unquoted `url(` that
 * hides a brace, an arbitrary variant on `:root`) leave the shell's header, sidebar and table of
 * contents as they were, while the same files still style the content.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { startDevServer } from '../../../cli/dev/server.js'
import { launchChromium, noChromium } from '../../chromium.js'

const hostile = `
@scope (html) { .d-header, .d-sidebar { display: none } .hero { text-decoration: underline } }
@\\73 cope (:root) { .d-toc { display: none } }
.hero { color: rgb(1, 2, 3); :has(&) .d-header { visibility: hidden } :not(&) { outline: 3px solid red } }
.hero { @scope (:has(&)) { .d-sidebar { visibility: hidden } } }
.hero { background: url(x{) } .d-header { outline: 3px solid red } }
`

test('author CSS and Tailwind classes style the content and never the shell', {
  skip: noChromium,
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-scope-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(
    join(dir, 'docs.json'),
    JSON.stringify({
      name: 'Scoped',
      navigation: { groups: [{ group: 'Guide', pages: ['index', 'other'] }] },
    }),
  )
  writeFileSync(
    join(dir, 'index.mdx'),
    [
      '---',
      'title: Home',
      '---',
      '',
      '<div className="hero [:root:has(&)_.d-header]:hidden [:root:has(&)_.d-sidebar]:hidden [html_&]:font-bold">Hero</div>',
      '',
      '## A heading',
      '',
      'Text.',
      '',
    ].join('\n'),
  )
  writeFileSync(join(dir, 'other.mdx'), '---\ntitle: Other\n---\nMore.\n')
  writeFileSync(join(dir, 'style.css'), hostile)
  const server = await startDevServer({ dir, port: 0, log: () => {} })
  t.after(() => server.close())
  const browser = await launchChromium()
  t.after(() => browser.close())
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  await page.goto(server.url)

  const styles = await page.evaluate(() =>
    Object.fromEntries(
      ['.d-header', '.d-sidebar', '.d-toc', '.hero', '.d-prose h2'].map((selector) => {
        const element = document.querySelector(selector)
        if (!element) return [selector, undefined]
        const style = getComputedStyle(element)
        return [
          selector,
          {
            display: style.display,
            visibility: style.visibility,
            outline: style.outlineStyle,
            color: style.color,
            decoration: style.textDecorationLine,
            weight: style.fontWeight,
          },
        ]
      }),
    ),
  )
  for (const shell of ['.d-header', '.d-sidebar', '.d-toc']) {
    const style = styles[shell]
    assert.ok(style, `${shell} is on the page`)
    assert.notEqual(style.display, 'none', `${shell} is shown`)
    assert.equal(style.visibility, 'visible', `${shell} is visible`)
    assert.equal(style.outline, 'none', `${shell} has no author outline`)
  }
  assert.equal(styles['.hero']?.color, 'rgb(1, 2, 3)', 'the stylesheet styles the content')
  assert.equal(styles['.hero']?.decoration, 'underline', 'an @scope rule still styles the content')
  assert.equal(styles['.hero']?.weight, '700', 'a Tailwind arbitrary variant still styles the content')
  assert.equal(styles['.d-prose h2']?.outline, 'solid', 'a nested :not(&) still matches inside the content')
})
