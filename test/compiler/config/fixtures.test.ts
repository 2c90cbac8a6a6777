/**
 * fixtures/invalid/<case>/: a site and `expected.txt`, the exact diagnostics `validateSite` prints for
 * it (strict; lenient when the case name ends in `-lenient`). Regenerate on purpose with UPDATE=1.
 * fixtures/sites/<site>/: valid sites, which must produce no diagnostic at all.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { validateSite } from '../../../compiler/validate-site.js'
import { readSiteFiles } from '../../../lib/site-dir.js'

const invalidRoot = fromPackageRoot('fixtures', 'invalid')
const sitesRoot = fromPackageRoot('fixtures', 'sites')

for (const name of readdirSync(invalidRoot).sort()) {
  test(`fixtures/invalid/${name} reports exactly its expected diagnostics`, async () => {
    const { files } = await readSiteFiles(join(invalidRoot, name))
    files.delete('expected.txt')
    const mode = name.endsWith('-lenient') ? 'lenient' : 'strict'
    const { diagnostics: all } = validateSite(files, { mode })
    // Front matter wording belongs to compiler/content (pinned in its tests): here, only its place.
    const isPage = (file: string) => /\.mdx?$/.test(file)
    const pageLines = all.filter((diagnostic) => isPage(diagnostic.file)).map((d) => `${d.file}:${d.line}`)
    const diagnostics = all.filter((diagnostic) => !isPage(diagnostic.file))
    const actual = [
      ...pageLines.map((place) => `page problem at ${place}\n`),
      ...diagnostics.map((diagnostic) => `${diagnostic.severity} ${formatDiagnostic(diagnostic)}\n`),
    ].join('')
    const expectedFile = join(invalidRoot, name, 'expected.txt')
    if (process.env.UPDATE === '1') writeFileSync(expectedFile, actual)
    assert.ok(all.length > 0, 'an invalid fixture must produce diagnostics')
    assert.equal(actual, readFileSync(expectedFile, 'utf8'))
  })
}

for (const name of readdirSync(sitesRoot).sort()) {
  test(`fixtures/sites/${name} is valid in strict mode`, async () => {
    const { files, problems } = await readSiteFiles(join(sitesRoot, name))
    assert.deepEqual(problems, [])
    const result = validateSite(files, { mode: 'strict' })
    assert.deepEqual(result.diagnostics.map(formatDiagnostic), [])
    assert.ok(result.config)
    assert.ok((result.navigation?.pages.length ?? 0) > 0)
  })
}
