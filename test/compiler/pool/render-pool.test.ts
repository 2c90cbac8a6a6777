/** The render pool's threads run under the heap limit they were given (PERFORMANCE.md: render-thread heap). */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { RenderPool, TEMPORARY_POOL_HEAP_MB } from '../../../compiler/pool/render-pool.js'

const encoder = new TextEncoder()

test("a command-line build's render thread gets its old-generation limit from piscina", async (t) => {
  const pool = new RenderPool({ threads: 1, oldGenerationMb: TEMPORARY_POOL_HEAP_MB })
  t.after(() => pool.close())
  const files = new Map([
    ['docs.json', encoder.encode(JSON.stringify({ name: 'Heap', navigation: { pages: ['index'] } }))],
    ['index.mdx', encoder.encode('---\ntitle: Heap\n---\n\nOne page.\n')],
  ])
  // A page first: the thread is then up and past loading its module, so closing it is safe.
  const [outcome] = await pool.render([{ file: 'index.mdx', slug: 'index' }], {
    files,
    pageSlugs: new Set(['index']),
    mode: 'lenient',
  })
  assert.equal(outcome?.ok, true, outcome?.ok === false ? outcome.message : '')
  const threads = pool.piscina.threads
  assert.equal(threads.length, 1)
  assert.equal(threads[0]!.resourceLimits?.maxOldGenerationSizeMb, TEMPORARY_POOL_HEAP_MB)
})
