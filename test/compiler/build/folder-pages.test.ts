/**
 * A folder's own page, `guide/index.mdx`, is the page at `/guide/` as on the format's hosted platform:
 * written to `guide/index.html`, linked as `guide/`, exported as `guide.md`, and `/guide/index` sends
 * readers there. Beside a page `guide.mdx` it would take the same URL: that one keeps it, with a warning.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { createRedirectMatcher, parseRedirectsFile } from '../../../compiler/redirects.js'
import { routeSitePath } from '../../../serving/router.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const site = (files: Record<string, string>) =>
  new Map(Object.entries(files).map(([path, text]) => [path, encoder.encode(text)]))

test('guide/index.mdx is the page at /guide/, and /guide/index redirects there', async () => {
  const result = await buildSite(
    site({
      'docs.json': JSON.stringify({
        name: 'Folders',
        navigation: { pages: ['index', 'guide/index', 'guide/setup'] },
      }),
      'index.mdx': '---\ntitle: Home\n---\n\nRead [the guide](/guide) or [its index](/guide/index).\n',
      'guide/index.mdx': '---\ntitle: Guide\n---\n\nStart with [setup](./setup).\n',
      'guide/setup.mdx': '---\ntitle: Setup\n---\n\nBack to [the guide](/guide/).\n',
    }),
    { mode: 'strict' },
  )
  assert.deepEqual(result.diagnostics.map(formatDiagnostic), [])
  assert.ok(result.files.has('guide/index.html'))
  assert.ok(result.files.has('guide.md'))
  assert.ok(
    !result.files.has('guide/index/index.html') ||
      /http-equiv="refresh"/.test(decoder.decode(result.files.get('guide/index/index.html'))),
  )
  const home = decoder.decode(result.files.get('index.html'))
  assert.match(home, /href="guide\/"/)
  assert.doesNotMatch(home, /href="guide\/index\/"/)
  const setup = decoder.decode(result.files.get('guide/setup/index.html'))
  assert.match(setup, /href="\.\.\/\.\.\/guide\/"/)
  const guide = decoder.decode(result.files.get('guide/index.html'))
  assert.match(guide, /href="\.\.\/guide\/setup\/"/, 'links from the folder page are relative to /guide/')
  // What docs-server and docsctl dev answer: the page at /guide/, a redirect from /guide/index.
  const files = { has: (path: string) => result.files.has(path) }
  const redirects = createRedirectMatcher(parseRedirectsFile(decoder.decode(result.files.get('_redirects'))))
  assert.deepEqual(routeSitePath('guide/', '', files, redirects), {
    type: 'page',
    path: 'guide/index.html',
    markdown: 'guide.md',
  })
  const moved = routeSitePath('guide/index', '', files, redirects)
  assert.equal(moved.type, 'redirect')
  assert.equal(moved.type === 'redirect' && moved.location, '/guide/')
})

test('beside guide.mdx, guide/index.mdx keeps nothing of /guide/ and says so', async () => {
  const result = await buildSite(
    site({
      'docs.json': JSON.stringify({ name: 'Folders', navigation: { pages: ['index', 'guide'] } }),
      'index.mdx': '---\ntitle: Home\n---\n',
      'guide.mdx': '---\ntitle: Guide page\n---\n',
      'guide/index.mdx': '---\ntitle: Guide folder\n---\n',
    }),
    { mode: 'lenient' },
  )
  assert.deepEqual(result.diagnostics.map(formatDiagnostic), [
    'guide/index.mdx Unexpected guide/index.mdx beside guide.mdx: both are the page at /guide/, which the latter keeps; rename or remove one',
  ])
  assert.match(decoder.decode(result.files.get('guide/index.html')), /Guide page/)
})
