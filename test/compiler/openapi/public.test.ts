/**
 * Public OpenAPI documents, saved with their origin and licence in fixtures/public/README.md (Swagger
 * Petstore as OpenAPI 3.0 JSON, 3.1 YAML and Swagger 2.0 JSON, and ReadMe's circular-schema example,
 * all from the npm package @readme/oas-examples), each build as a site's whole API reference: a page
 * per operation, no error, circular schemas cut where they repeat.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { buildSite } from '../../../compiler/build.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { loadSpec } from '../../../compiler/openapi/load.js'
import { listOperations } from '../../../compiler/openapi/operations.js'

const SPECS = ['petstore-3.0.json', 'petstore-3.1.yaml', 'petstore-2.0.json', 'schema-circular-3.0.json']

for (const spec of SPECS) {
  test(`${spec} builds as an API reference with a page per operation`, async (t) => {
    const files = new Map<string, Uint8Array>([
      [spec, readFileSync(fromPackageRoot('test', 'compiler', 'openapi', 'fixtures', 'public', spec))],
      [
        'docs.json',
        new TextEncoder().encode(
          JSON.stringify({ name: 'Public', navigation: { tabs: [{ tab: 'API', openapi: spec }] } }),
        ),
      ],
    ])
    const loaded = await loadSpec(files, spec)
    assert.deepEqual(loaded.diagnostics, [])
    const operations = listOperations(loaded.document!)
    const result = await buildSite(files, { mode: 'lenient' })
    t.diagnostic(
      `${spec}: ${operations.length} operations, ${result.stats.pages} pages in ${result.stats.durationMs.toFixed(0)} ms`,
    )
    assert.deepEqual(result.diagnostics.map(formatDiagnostic), [])
    // Each operation's page, not the redirects from where earlier builds put it.
    const pages = [...result.files.keys()].filter(
      (path) =>
        path.startsWith('api-reference/') &&
        path.endsWith('/index.html') &&
        !new TextDecoder().decode(result.files.get(path)).includes('<title>Moved</title>'),
    )
    assert.equal(pages.length, operations.length)
    for (const page of pages) {
      const html = new TextDecoder().decode(result.files.get(page))
      assert.ok(html.includes('class="d-api-endpoint"'), `${page} shows its endpoint`)
      assert.ok(
        /class="d-field d-(param|response)-field"|<h3 id="(\d{3}|\dxx|default)"/i.test(html),
        `${page} shows what it takes or answers`,
      )
    }
    if (spec.startsWith('schema-circular'))
      assert.ok(
        pages.some((page) => new TextDecoder().decode(result.files.get(page)).includes('Circular:')),
        'a circular schema is cut where it repeats',
      )
  })
}
