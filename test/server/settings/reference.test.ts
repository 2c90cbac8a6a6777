import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../lib/package-root.js'
import { referencePath, settingsReference } from '../../../server/settings/reference.js'
import { settings } from '../../../server/settings/table.js'

test(`${referencePath} is up to date with the settings table (else run npm run docs:generate)`, () => {
  assert.equal(readFileSync(fromPackageRoot(referencePath), 'utf8'), settingsReference())
})

test('the reference names every flag and variable, and no default of this machine', () => {
  const reference = settingsReference()
  for (const setting of Object.values(settings)) {
    assert.ok(reference.includes(`\`--${setting.flag}\``), setting.flag)
    assert.ok(reference.includes(`\`${setting.env}\``), setting.env)
  }
  // The build workers' default follows the cores: the committed file says so in words.
  assert.match(reference, /`--build-workers` \| `DOCS_BUILD_WORKERS` \| `half the cores, at least 1`/)
})
