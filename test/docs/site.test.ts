/**
 * The manual in docs/ is a site this product builds: checked as `docsctl validate docs` checks it
 * (strictly: docs.json, every page, every link), built as `docsctl build docs` builds it, with no
 * diagnostic of any severity; then every link's anchor is looked up in the page it points at, and
 * every operation of the generated OpenAPI document has its page.
 */
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { posix } from 'node:path'
import { test } from 'node:test'
import { buildSite } from '../../compiler/build.js'
import { formatDiagnostic } from '../../compiler/diagnostics.js'
import { checkSite } from '../../compiler/validate.js'
import { fromPackageRoot } from '../../lib/package-root.js'
import { readSiteFiles } from '../../lib/site-dir.js'
import { openapiDocumentPath } from '../../server/openapi-document.js'

/** The values of one attribute in a page's HTML, entities decoded. */
function attributeValues(html: string, attribute: string): string[] {
  return [...html.matchAll(new RegExp(`\\s${attribute}="([^"]*)"`, 'g'))].map((match) =>
    match[1]!.replaceAll('&#x26;', '&').replaceAll('&amp;', '&').replaceAll('&#x22;', '"'),
  )
}

test('docs/ validates strictly and builds with no warning, every anchor found', async () => {
  const { files, problems } = await readSiteFiles(fromPackageRoot('docs'))
  assert.deepEqual(problems, [])
  // What `docsctl validate docs` runs, then what `docsctl build docs` runs, reusing the checked pages.
  const check = await checkSite(files, { mode: 'strict' })
  assert.deepEqual(check.diagnostics.map(formatDiagnostic), [])
  const built = await buildSite(files, { mode: 'strict', ...(check.cache ? { cache: check.cache } : {}) })
  assert.deepEqual(built.diagnostics.map(formatDiagnostic), [])
  assert.equal(built.ok, true)

  const pages = new Map<string, string>()
  for (const [path, bytes] of built.files) {
    if (path.endsWith('.html')) pages.set(path, new TextDecoder().decode(bytes))
  }
  const ids = new Map([...pages].map(([path, html]) => [path, new Set(attributeValues(html, 'id'))]))
  const missing: string[] = []
  let anchorLinks = 0
  for (const [path, html] of pages) {
    const base = new URL(`http://site/${posix.dirname(path)}/`)
    for (const href of attributeValues(html, 'href')) {
      const url = new URL(href, base)
      if (url.host !== 'site' || url.hash === '') continue
      const target = `${url.pathname.slice(1)}${url.pathname.endsWith('/') ? 'index.html' : ''}`
      const anchor = decodeURIComponent(url.hash.slice(1))
      anchorLinks++
      if (!ids.get(target)?.has(anchor)) missing.push(`${path}: ${href}`)
    }
  }
  assert.deepEqual(missing, [], 'links to anchors that no page holds')
  assert.ok(anchorLinks > 50, `only ${anchorLinks} links with an anchor seen`)

  // Every operation of the server's OpenAPI document is a page of the REST API reference.
  const document = JSON.parse(await readFile(fromPackageRoot(openapiDocumentPath), 'utf8')) as {
    paths: Record<string, Record<string, unknown>>
  }
  const operations = Object.values(document.paths).flatMap((methods) => Object.keys(methods))
  const operationPages = [...pages].filter(
    ([path, html]) => path.startsWith('reference/api/') && html.includes('class="d-api-endpoint"'),
  )
  assert.equal(operationPages.length, operations.length)
})
