/**
 * The corpus sites' API reference: in the run's shared build of pipecat and of mem0, every page whose
 * front matter names an operation of the site's own spec renders the operation (endpoint line plus
 * parameters, body or responses) above the author's text, with no OpenAPI diagnostic. stagehand names
 * its spec by URL; the corpus holds no copy and the server never fetches, so its build says once what to
 * do, and leaves no navigation entry pointing at a missing operation page.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { loadConfig } from '../../../compiler/config/index.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { pageOutputPath } from '../../../compiler/theme/urls.js'
import { readSiteFiles } from '../../../lib/site-dir.js'
import { corpusRoot } from '../../corpus.js'
import { builtCorpusSite } from '../../corpus-build.js'

const decoder = new TextDecoder()

for (const site of ['pipecat', 'mem0'] as const) {
  test(`every openapi: page of the ${site} corpus shows its operation`, async (t) => {
    const { files } = await readSiteFiles(join(corpusRoot, site))
    const apiPages = [...files]
      .filter(
        ([path, bytes]) =>
          path.endsWith('.mdx') && /^---[\s\S]*?^openapi:/m.test(decoder.decode(bytes).slice(0, 2000)),
      )
      .map(([path]) => path.slice(0, -'.mdx'.length))
      .sort()
    assert.ok(apiPages.length >= 20, `${site} has its API pages (found ${apiPages.length})`)
    // The run's shared lenient build of the whole site (test/corpus-build.ts): no OpenAPI diagnostic
    // anywhere, and no broken link or render failure on an operation page.
    const { result } = await builtCorpusSite(site)
    t.diagnostic(`${site}: ${apiPages.length} operation pages`)
    const operationFiles = new Set(apiPages.map((slug) => `${slug}.mdx`))
    const problems = result.diagnostics.filter(
      (diagnostic) =>
        /^openapi/.test(diagnostic.rule) ||
        (/^broken-link|^render/.test(diagnostic.rule) && operationFiles.has(diagnostic.file ?? '')),
    )
    assert.deepEqual(problems.map(formatDiagnostic), [])
    for (const slug of apiPages) {
      const html = decoder.decode(result.files.get(pageOutputPath(slug)) ?? new Uint8Array())
      assert.match(html, /class="d-api-endpoint"/, `${slug} shows its endpoint`)
      assert.match(
        html,
        /class="d-field d-(param|response)-field"/,
        `${slug} shows parameters, body or responses`,
      )
    }
  })
}

test('stagehand names its spec by URL: one warning, and no entry left pointing at a missing page', async () => {
  const { files } = await readSiteFiles(join(corpusRoot, 'stagehand'))
  const navigation = loadConfig(files, { mode: 'lenient' }).navigation!
  const first = navigation.pages[0]!.slug
  const result = await buildSite(files, { mode: 'lenient', only: [first] })
  const notFetched = result.diagnostics.filter((diagnostic) => diagnostic.rule === 'openapi-not-fetched')
  assert.equal(notFetched.length, 1)
  assert.match(notFetched[0]!.message, /stainless\.com.*docsctl validate/)
  assert.deepEqual(
    result.diagnostics.filter((diagnostic) => diagnostic.rule === 'missing-page').map(formatDiagnostic),
    [],
  )
})
