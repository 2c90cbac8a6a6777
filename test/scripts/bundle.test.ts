/**
 * The bundle `npm run build` makes (scripts/bundle.ts): the package's bins are the bundled entries, and
 * `docsctl` loads a few files of ours rather than hundreds, and nothing bundled refers to CommonJS's
 * `__dirname`/`__filename`, which an ES module does not have (a package upgrade that starts using them
 * would fail only when that code runs). That the bundled code builds what the unbundled code does is
 * test/compiler/pool/worker-modules.test.ts; every test that spawns docsctl runs the bundle.
 */
import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test } from 'node:test'
import { fromPackageRoot } from '../../lib/package-root.js'
import { loadedModules } from '../loaded-modules.js'
import { needs } from '../tier.js'

test("the package's bins are the bundle; docsctl starts from a few files of ours", {
  skip: needs('a built binary'),
}, async () => {
  const manifest = JSON.parse(await readFile(fromPackageRoot('package.json'), 'utf8')) as {
    bin: Record<string, string>
  }
  assert.deepEqual(manifest.bin, {
    docsctl: 'dist/bundle/cli/main.js',
    'docs-server': 'dist/bundle/server/main.js',
  })
  const bin = fromPackageRoot(manifest.bin.docsctl ?? '')
  assert.match(await readFile(bin, 'utf8'), /^#!\/usr\/bin\/env node\n/)

  const { stdout, modules } = await loadedModules([bin, '--version'])
  assert.match(stdout, /^\d+\.\d+\.\d+/)
  const ours = modules.filter((url) => url.startsWith(`file://${fromPackageRoot('dist')}/`))
  assert.deepEqual(
    ours.filter((url) => !url.startsWith(`file://${fromPackageRoot('dist', 'bundle')}/`)),
    [],
    'nothing of tsc’s unbundled output',
  )
  // The entry and the chunks it shares with other entries: some tens, not the ~300 tsc writes.
  assert.ok(ours.length <= 30, `${ours.length} files: ${ours.join(', ')}`)
})

test('nothing bundled refers to __dirname or __filename', async () => {
  const root = fromPackageRoot('dist', 'bundle')
  const files = (await readdir(root, { recursive: true })).filter((name) => name.endsWith('.js'))
  assert.ok(files.length > 3, files.join(', '))
  for (const name of files) {
    const text = await readFile(join(root, name), 'utf8')
    assert.doesNotMatch(text, /\b__(dirname|filename)\b/, name)
  }
})
