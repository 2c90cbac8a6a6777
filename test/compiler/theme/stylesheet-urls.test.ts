/**
 * The files an author's stylesheet loads carry the version of their bytes, so a reader never gets one
 * deployment's stylesheet with the next one's background image or font.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { assetVersion } from '../../../compiler/content/asset-version.js'
import { versionStylesheetUrls } from '../../../compiler/theme/stylesheet-urls.js'
import { text } from '../build/helpers.js'

const encoder = new TextEncoder()
const png = encoder.encode('png bytes')
const font = encoder.encode('woff2 bytes')
const v = (bytes: Uint8Array) => assetVersion(bytes)
const site = new Map<string, Uint8Array>([
  ['images/bg.png', png],
  ['fonts/a b.woff2', font],
])
const bytesOf = (path: string) => site.get(path)

test('site files a stylesheet loads are versioned, quoted or not, relative to the stylesheet or the root', () => {
  assert.equal(
    versionStylesheetUrls('.a { background: url( images/bg.png ) }', 'style.css', bytesOf),
    `.a { background: url( images/bg.png?v=${v(png)} ) }`,
  )
  assert.equal(
    versionStylesheetUrls(
      `@font-face { src: url("../fonts/a%20b.woff2#x") format("woff2") }`,
      'css/site.css',
      bytesOf,
    ),
    `@font-face { src: url("../fonts/a%20b.woff2?v=${v(font)}#x") format("woff2") }`,
  )
  assert.equal(
    versionStylesheetUrls(`.a { background: URL('/images/bg.png') }`, 'deep/er/x.css', bytesOf),
    `.a { background: URL('/images/bg.png?v=${v(png)}') }`,
  )
})

test('other origins, data URLs, queries, escapes, missing files and stylesheets stay as written', () => {
  for (const css of [
    '.a { background: url(https://cdn.example/images/bg.png) }',
    '.a { background: url(//cdn.example/images/bg.png) }',
    '.a { background: url(data:image/png;base64,AAAA) }',
    '.a { background: url(images/bg.png?w=2) }',
    '.a { background: url(images/b\\67.png) }',
    '.a { background: url(images/missing.png) }',
    '@import url("other.css");',
    '.a { background: url() }',
    '.a { content: "url(images/bg.png)" }',
    '.a { background: url(images/bg.png }',
  ])
    assert.equal(
      versionStylesheetUrls(css, 'style.css', (path) => (path === 'other.css' ? png : bytesOf(path))),
      css,
      css,
    )
})

test('a build publishes and versions the images its root stylesheet loads, and the stylesheet link follows them', async () => {
  const files = (image: string) =>
    new Map([
      ['docs.json', encoder.encode(JSON.stringify({ name: 'Styled', navigation: { pages: ['index'] } }))],
      ['index.mdx', encoder.encode('---\ntitle: Home\n---\nHello.\n')],
      ['style.css', encoder.encode('.hero { background: url(images/hero.png) }\n')],
      ['images/hero.png', encoder.encode(image)],
    ])
  const first = await buildSite(files('one'), { mode: 'strict', workers: 1 })
  const second = await buildSite(files('two'), { mode: 'strict', workers: 1 })
  assert.deepEqual(first.diagnostics, [])
  // Published although no page names it: the stylesheet does.
  assert.equal(text(first.files, 'images/hero.png'), 'one')
  assert.equal(
    text(first.files, 'style.css'),
    `:where(.d-prose) .hero { background: url(images/hero.png?v=${v(encoder.encode('one'))}) }\n`,
  )
  // The stylesheet's own bytes did not change in the author's file, yet its link changes with the image.
  const link = (built: typeof first) =>
    /href="(style\.css\?v=[0-9a-f]{12})"/.exec(text(built.files, 'index.html'))?.[1]
  assert.ok(link(first))
  assert.notEqual(link(first), link(second))
})
