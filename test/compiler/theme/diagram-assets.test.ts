/**
 * Mermaid: the bundle and the script that draws diagrams ship from the site's own assets with a site
 * that has a diagram, are loaded only by the pages that do, and run under the pages' CSP.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { diagramFiles } from '../../../compiler/theme/diagram-assets.js'
import { text } from '../build/helpers.js'

const encoder = new TextEncoder()

const site = (pages: Record<string, string>) =>
  new Map([
    [
      'docs.json',
      encoder.encode(JSON.stringify({ name: 'Diagrams', navigation: { pages: Object.keys(pages) } })),
    ],
    ...Object.entries(pages).map(([slug, body]): [string, Uint8Array] => [
      `${slug}.mdx`,
      encoder.encode(`---\ntitle: ${slug}\n---\n${body}\n`),
    ]),
  ])

test('only pages with a diagram load mermaid, from the site, and its script runs under the CSP', async (t) => {
  const built = await buildSite(
    site({ index: 'No diagram here.', flow: '```mermaid\nflowchart LR\n  A --> B\n```' }),
    { mode: 'strict', workers: 1 },
  )
  assert.deepEqual(built.diagnostics, [])
  const { mermaidPath, scriptPath } = diagramFiles()
  const page = text(built.files, 'flow/index.html')
  assert.ok(
    page.includes(
      `<script src="../${mermaidPath}" defer></script><script src="../${scriptPath}" defer></script>`,
    ),
    'the diagram page loads mermaid, then the script that draws with it',
  )
  assert.match(page, /<pre class="d-mermaid-source">flowchart LR\n {2}A --> B<\/pre>/)
  assert.doesNotMatch(text(built.files, 'index.html'), /mermaid/)
  const bundle = built.files.get(mermaidPath)
  assert.ok(bundle && bundle.byteLength > 1_000_000, 'the mermaid bundle is in the site')
  assert.ok(built.hashedAssets.has(mermaidPath) && built.hashedAssets.has(scriptPath))
  // Both are files on the site's origin: `script-src 'self'` runs them, nothing from a CDN.
  assert.match(built.contentSecurityPolicy, /script-src 'self'/)
  assert.doesNotMatch(page, /<script src="https?:/)
  t.diagnostic(`mermaid bundle: ${(bundle.byteLength / 1024).toFixed(0)} KiB`)
})

test('a site without diagrams ships no mermaid files and renders no differently', async () => {
  const built = await buildSite(site({ index: '```js\nconst mermaid = 1\n```' }), {
    mode: 'strict',
    workers: 1,
  })
  assert.deepEqual(
    [...built.files.keys()].filter((path) => /mermaid|diagrams/.test(path)),
    [],
  )
  assert.doesNotMatch(text(built.files, 'index.html'), /d-mermaid|diagrams\./)
})
