/**
 * vendor/ holds exactly what `npm run vendor:update` took from each package: every file listed in
 * vendor/manifest.json with its sha256, and nothing unlisted. A hand edit or a half-done update fails here.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { relative, sep } from 'node:path'
import { test } from 'node:test'
import { fromPackageRoot } from '../../compiler/assets.js'
import { readVendored, VENDOR_MANIFEST, type VendorManifest } from '../../compiler/vendor.js'

const manifest = JSON.parse(readVendored(VENDOR_MANIFEST).toString('utf8')) as VendorManifest

test('every vendored file has the sha256 the manifest records, and no file is unlisted', () => {
  const listed = new Map<string, string>()
  for (const { files } of Object.values(manifest.packages))
    for (const [path, sha256] of Object.entries(files)) listed.set(path, sha256)
  for (const [path, sha256] of listed)
    assert.equal(createHash('sha256').update(readVendored(path)).digest('hex'), sha256, path)
  const root = fromPackageRoot('vendor')
  const present = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, `${entry.parentPath}/${entry.name}`).split(sep).join('/'))
    .filter((path) => path !== VENDOR_MANIFEST)
  assert.deepEqual(present.sort(), [...listed.keys()].sort())
})

test('the vendored packages are no longer installed dependencies', () => {
  const pkg = JSON.parse(readFileSync(fromPackageRoot('package.json'), 'utf8')) as {
    dependencies: Record<string, string>
    files: string[]
  }
  for (const name of Object.keys(manifest.packages)) assert.equal(pkg.dependencies[name], undefined, name)
  assert.ok(pkg.files.includes('vendor'), 'the package ships vendor/')
})
