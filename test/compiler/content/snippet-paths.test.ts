/**
 * Imports without an extension resolve as the format's tooling resolves them: the file with a known
 * extension, else the folder's index file; never anything outside the site.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { renderPage } from '../../../compiler/content/render-page.js'
import { withImportExtension } from '../../../compiler/content/snippet-paths.js'
import { createHighlighter } from '../../../compiler/highlight/index.js'

const encoder = new TextEncoder()

test('an import without an extension names the file with one, else the folder index', () => {
  const files = new Set([
    'snippets/intro.mdx',
    'snippets/intro.jsx',
    'components/badge.jsx',
    'guide/parts/index.tsx',
  ])
  const exists = (path: string) => files.has(path)
  assert.equal(withImportExtension('/snippets/intro', 'guide/page.mdx', exists), '/snippets/intro.mdx')
  assert.equal(withImportExtension('/components/badge', 'guide/page.mdx', exists), '/components/badge.jsx')
  assert.equal(withImportExtension('./parts', 'guide/page.mdx', exists), './parts/index.tsx')
  assert.equal(withImportExtension('./parts/', 'guide/page.mdx', exists), './parts/index.tsx')
  assert.equal(withImportExtension('/snippets/intro.jsx', 'guide/page.mdx', exists), '/snippets/intro.jsx')
  assert.equal(withImportExtension('/snippets/missing', 'guide/page.mdx', exists), '/snippets/missing')
  assert.equal(
    withImportExtension('../../../etc/passwd', 'guide/page.mdx', () => true),
    '../../../etc/passwd',
  )
  assert.equal(
    withImportExtension('react', 'guide/page.mdx', () => true),
    'react',
  )
})

test('a page imports snippets and components without their extensions', async () => {
  const files = new Map(
    Object.entries({
      'snippets/intro.mdx': 'Shared **intro**.\n',
      'components/badge.jsx':
        'import { label } from \'./label\'\nexport const Badge = () => <span className="b">{label}</span>\n',
      'components/label.js': "export const label = 'Beta'\n",
      'guide/parts/index.jsx':
        'export const Tile = ({ children }) => <div className="tile">{children}</div>\n',
    }).map(([path, text]) => [path, encoder.encode(text)]),
  )
  const page = await renderPage({
    file: 'guide/page.mdx',
    slug: 'guide/page',
    source: [
      '---',
      'title: Imports',
      '---',
      '',
      "import Intro from '/snippets/intro'",
      "import { Badge } from '/components/badge'",
      "import { Tile } from './parts'",
      '',
      '<Intro />',
      '',
      '<Badge />',
      '',
      '<Tile>Inside</Tile>',
      '',
    ].join('\n'),
    files,
    pageSlugs: new Set(['guide/page']),
    mode: 'strict',
    highlighter: await createHighlighter(),
  })
  assert.deepEqual(page.diagnostics, [])
  assert.match(page.html, /Shared <strong>intro<\/strong>\./)
  assert.match(page.html, /<span class="b">Beta<\/span>/)
  assert.match(page.html, /<div class="tile">Inside<\/div>/)
})
