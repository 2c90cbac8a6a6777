/**
 * A reference page of tens of thousands of components renders in one build thread under the heap limit
 * `docsctl build` gives each thread, every field of it, with the links a reference definition at its end
 * resolves. Slow tier (test/run.js): fifteen seconds of CPU for one page.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { renderWithTemporaryPool } from '../../../compiler/pool/render-pool.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

test('a reference page of 30,000 sibling JSX tags builds under the command-line build thread heap', async (t) => {
  const field = (n: number) =>
    `<ParamField path="field${n}" type="string" required>\n  Field ${n}, see [the guide][guide].\n</ParamField>\n\n`
  const files = new Map(
    Object.entries({
      'docs.json': JSON.stringify({ name: 'Long', navigation: { pages: ['index', 'reference'] } }),
      'index.mdx': '---\ntitle: Home\n---\n\nHome.\n',
      'reference.mdx': `---\ntitle: Reference\n---\n\n${Array.from({ length: 15_000 }, (_, n) => field(n)).join('')}[guide]: /index\n`,
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
  // Not assert.match: a failure would print the whole 6 MB page. The reference definition at the end
  // reaches the first field and the last.
  assert.ok(page.includes('Field 0, see <a href="../">the guide</a>'))
  assert.ok(page.includes('Field 14999, see <a href="../">the guide</a>'))
})
