/**
 * Redirects in the static export and the link checker: a fixture whose docs.json keeps its redirects
 * in a `$ref` file (an array) builds strictly, writes `_redirects` and one meta-refresh page per simple
 * source, and its links to moved pages go to where they moved instead of being reported broken.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { buildSite } from '../../../compiler/build.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { readFixture, text } from '../build/helpers.js'

const redirectsSite = fromPackageRoot('test', 'compiler', 'build', 'fixtures', 'redirects-site')

test('the export carries _redirects and meta-refresh pages; moved links are not broken', async () => {
  const result = await buildSite(readFixture(redirectsSite), { mode: 'strict' })
  assert.deepEqual(result.diagnostics.map(formatDiagnostic), [])
  assert.equal(
    text(result.files, '_redirects'),
    '/setup /guide/install 308!\n/old/* /guide/:splat 307!\n/forum https://forum.example.com 308!\n',
  )
  assert.match(
    text(result.files, 'setup/index.html'),
    /<meta http-equiv="refresh" content="0; url=\.\.\/guide\/install\/">/,
  )
  assert.match(text(result.files, 'forum/index.html'), /url=https:\/\/forum\.example\.com"/)
  // A pattern source has no page of its own: `_redirects` and the server cover it.
  assert.equal(
    [...result.files.keys()].some((path) => path.startsWith('old/')),
    false,
  )

  const home = text(result.files, 'index.html')
  assert.match(home, /href="guide\/install\/">the setup</)
  assert.match(home, /href="guide\/usage\/#options">usage</)
  assert.match(home, /href="https:\/\/forum\.example\.com"[^>]*>the forum</)
})

test('a broken $ref in redirects is reported before any page renders', async (t) => {
  const files = readFixture(redirectsSite)
  files.delete('redirects.json')
  const started = performance.now()
  const strict = await buildSite(files, { mode: 'strict' })
  const elapsed = performance.now() - started
  assert.equal(strict.ok, false)
  assert.deepEqual(strict.diagnostics.map(formatDiagnostic), [
    'docs.json:4:26 redirects: "$ref" "redirects.json": file redirects.json not found; create it or correct the path',
  ])
  assert.equal(strict.stats.pagesRendered, 0)
  t.diagnostic(`broken $ref in redirects reported in ${Math.round(elapsed)} ms`)

  // Lenient, as a deployment builds: the redirects are dropped with a warning and the site renders.
  const lenient = await buildSite(files, { mode: 'lenient' })
  assert.equal(lenient.ok, true)
  assert.ok(lenient.files.has('guide/install/index.html'))
  assert.equal(lenient.files.has('_redirects'), false)
})
