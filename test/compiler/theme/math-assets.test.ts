/**
 * KaTeX's stylesheet and fonts: shipped from the site's own assets with a site that shows math, and
 * linked only by the pages that do.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { mathFiles } from '../../../compiler/theme/math-assets.js'
import { text } from '../build/helpers.js'

const encoder = new TextEncoder()

const site = (pages: Record<string, string>) =>
  new Map([
    [
      'docs.json',
      encoder.encode(JSON.stringify({ name: 'Math', navigation: { pages: Object.keys(pages) } })),
    ],
    ...Object.entries(pages).map(([slug, body]): [string, Uint8Array] => [
      `${slug}.mdx`,
      encoder.encode(`---\ntitle: ${slug}\n---\n${body}\n`),
    ]),
  ])

test('only pages with math link KaTeX, and its stylesheet and every font it names are in the site', async () => {
  const built = await buildSite(site({ index: 'Prices: $5 and $10.', formula: '$$\n\\sqrt{2}\n$$' }), {
    mode: 'strict',
    workers: 1,
  })
  assert.deepEqual(built.diagnostics, [])
  const { cssPath } = mathFiles()
  assert.match(
    text(built.files, 'formula/index.html'),
    new RegExp(`<link rel="stylesheet" href="\\.\\./${cssPath}">`),
  )
  assert.doesNotMatch(text(built.files, 'index.html'), /katex/)
  const css = text(built.files, cssPath)
  const fonts = [...css.matchAll(/url\(([^)]+)\)/g)].map((match) => match[1])
  assert.ok(fonts.length >= 15, `expected KaTeX's fonts, found ${fonts.length}`)
  for (const font of fonts) {
    assert.match(font ?? '', /^fonts\/KaTeX_[\w-]+\.woff2$/)
    assert.ok(built.files.has(`${cssPath.replace(/katex\.css$/, '')}${font}`), `${font} is in the site`)
  }
  assert.ok(built.hashedAssets.has(cssPath))
})

test('a site without math ships no KaTeX files', async () => {
  const built = await buildSite(site({ index: 'No math here, only $5.' }), { mode: 'strict', workers: 1 })
  assert.deepEqual(
    [...built.files.keys()].filter((path) => path.includes('katex')),
    [],
  )
})
