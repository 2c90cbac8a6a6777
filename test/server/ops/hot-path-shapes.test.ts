/** The hot path's object shapes are kept alive from the very start of docs-server. */
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { ServerResponse } from 'node:http'
import { test } from 'node:test'
import { keptShapes } from '../../../server/ops/hot-path-shapes.js'

test('a nextTick entry and a request/response pair stay alive for the life of the process', () => {
  const kept = keptShapes()
  assert.ok(kept.tick, 'the async hook saw the nextTick entry')
  assert.equal(typeof (kept.tick as { callback?: unknown }).callback, 'function')
  assert.ok(kept.response instanceof ServerResponse)
  assert.equal(kept.response.req, kept.request)
})

test('docs-server imports the module before anything else, so no map is dropped before it runs', async () => {
  const main = await readFile(new URL('../../../server/main.js', import.meta.url), 'utf8')
  const imports = [...main.matchAll(/^import\s+(?:[^'"]*from\s+)?['"]([^'"]+)['"]/gm)].map(
    (match) => match[1],
  )
  assert.equal(imports[0], './ops/hot-path-shapes.js')
})
