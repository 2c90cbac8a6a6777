import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import { fromPackageRoot } from '../../compiler/assets.js'
import { generatedTypes, generateTypes } from '../../schemas/generate-types.js'

for (const { schema, output } of generatedTypes) {
  test(`${output} is up to date with ${schema} (else run npm run schemas:types)`, async () => {
    const committed = await readFile(fromPackageRoot(output), 'utf8')
    assert.equal(committed, await generateTypes(schema))
  })
}
