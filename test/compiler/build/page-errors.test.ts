/**
 * One page over a limit costs that page its body, not the site: a lenient build (what the server
 * deploys, `docsctl build --lenient`) writes every other page and succeeds with the page's error; a
 * strict build (`validate`, `build`) fails on it like on any error.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { MAX_BLOCK_BYTES } from '../../../compiler/content/remark-jsx-limit.js'
import { renderWithTemporaryPool } from '../../../compiler/pool/render-pool.js'

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

test('a reference page of 30,000 sibling JSX tags builds under the command-line build thread heap', async (t) => {
  const field = (n: number) =>
    `<ParamField path="field${n}" type="string" required>\n  Field ${n} of the request.\n</ParamField>\n\n`
  const files = new Map(
    Object.entries({
      'docs.json': JSON.stringify({ name: 'Long', navigation: { pages: ['index', 'reference'] } }),
      'index.mdx': '---\ntitle: Home\n---\n\nHome.\n',
      'reference.mdx': `---\ntitle: Reference\n---\n\n${Array.from({ length: 15_000 }, (_, n) => field(n)).join('')}`,
    }).map(([path, text]) => [path, encoder.encode(text)]),
  )
  const started = performance.now()
  // One thread with the heap limit `docsctl build` gives each of its threads (TEMPORARY_POOL_HEAP_MB).
  const result = await buildSite(files, {
    mode: 'strict',
    renderer: (tasks, site) => renderWithTemporaryPool(tasks, site, 1),
  })
  t.diagnostic(`built in ${Math.round(performance.now() - started)} ms`)
  assert.deepEqual(
    result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
    [],
  )
  const page = decoder.decode(result.files.get('reference/index.html'))
  assert.equal(page.split('id="param-field').length - 1, 15_000)
})
