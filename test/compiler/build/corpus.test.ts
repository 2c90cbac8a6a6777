/**
 * The four real sites in ../shared/corpus build in lenient mode with every navigation page rendered
 * and no error. Their warnings are pinned in expected/<site>.txt; regenerate on purpose with UPDATE=1.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { readSiteFiles } from '../../../cli/site-dir.js'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { buildSite } from '../../../compiler/build.js'
import { loadConfig } from '../../../compiler/config/index.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { pageOutputPath } from '../../../compiler/theme/urls.js'
import { corpusRoot } from '../../corpus.js'

const corpus = corpusRoot
const sites = ['x402', 'rallly', 'cline', 'mem0']

for (const site of sites) {
  test(`corpus site ${site} builds leniently with every navigation page and no error`, {}, async () => {
    const { files } = await readSiteFiles(join(corpus, site))
    const result = await buildSite(files, { mode: 'lenient', workers: 2 })
    const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error')
    assert.deepEqual(errors.map(formatDiagnostic), [])
    const navigation = loadConfig(files, { mode: 'lenient' }).navigation!
    for (const location of navigation.pages) {
      const hasSource = files.has(`${location.slug}.mdx`) || files.has(`${location.slug}.md`)
      if (hasSource)
        assert.ok(result.files.has(pageOutputPath(location.slug)), `${location.slug} is rendered`)
    }
    for (const required of ['llms.txt', 'llms-full.txt', '404.html', 'robots.txt', '_search/index.js'])
      assert.ok(result.files.has(required), required)

    const warnings = `${result.diagnostics.map((diagnostic) => `${diagnostic.rule} ${formatDiagnostic(diagnostic)}`).join('\n')}\n`
    const expectedPath = fromPackageRoot('test', 'compiler', 'build', 'expected', `${site}.txt`)
    if (process.env.UPDATE === '1') writeFileSync(expectedPath, warnings)
    assert.equal(warnings, readFileSync(expectedPath, 'utf8'))
  })
}
