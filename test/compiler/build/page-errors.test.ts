/**
 * One page over a limit costs that page its body, not the site: a lenient build (what the server
 * deploys, `docsctl build --lenient`) writes every other page and succeeds with the page's error; a
 * strict build (`validate`, `build`) fails on it like on any error.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { MAX_BLOCK_BYTES } from '../../../compiler/content/remark-jsx-limit.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

test('a page with a block over the size limit is an error on that page; the lenient build writes the rest', async () => {
  const files = new Map(
    Object.entries({
      'docs.json': JSON.stringify({ name: 'Long', navigation: { pages: ['index', 'reference'] } }),
      'index.mdx': '---\ntitle: Home\n---\n\nStill here.\n',
      'reference.mdx': `---\ntitle: Reference\n---\n\n${'<b>x</b> '.repeat(MAX_BLOCK_BYTES / 8)}\n`,
    }).map(([path, text]) => [path, encoder.encode(text)]),
  )
  const lenient = await buildSite(files, { mode: 'lenient' })
  assert.equal(lenient.ok, true)
  assert.deepEqual(
    lenient.diagnostics
      .filter((diagnostic) => diagnostic.severity === 'error')
      .map((diagnostic) => diagnostic.rule),
    ['page-limit'],
  )
  assert.match(decoder.decode(lenient.files.get('index.html')), /Still here/)
  assert.ok(lenient.files.has('reference/index.html'), 'the page keeps its place, with an empty body')
  const strict = await buildSite(files, { mode: 'strict' })
  assert.equal(strict.ok, false)
})
