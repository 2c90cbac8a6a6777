/** The hot path's object shapes are kept alive from the very start of docs-server. */
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { ServerResponse } from 'node:http'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../lib/package-root.js'
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

test('the bundled docs-server runs the module first too: every module before it only defines itself', async () => {
  const bundled = await readFile(fromPackageRoot('dist', 'bundle', 'server', 'main.js'), 'utf8')
  const at = bundled.indexOf('\n// dist/server/ops/hot-path-shapes.js\n')
  assert.ok(at > 0, 'the module is in the bundle')
  // esbuild marks each module with a `// path` comment; a wrapped one (`__esm`, `__commonJS`) runs only
  // when something first imports or requires it, which is after this module has run.
  const before = bundled
    .slice(0, at)
    .split(/\n(?=\/\/ (?:dist|node_modules)\/)/)
    .slice(1)
  const runsAtOnce = before.filter((block) => !/= __(?:esm|commonJS)\(/.test(block))
  assert.deepEqual(
    runsAtOnce.map((block) => block.slice(0, block.indexOf('\n'))),
    [],
  )
})
