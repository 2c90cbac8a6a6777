/** Imports read before rendering (compiler/content/mdx-static.ts): one problem per missing file, not one per use. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { renderPage } from '../../../compiler/content/render-page.js'
import { createHighlighter } from '../../../compiler/highlight/index.js'

test('a component and a function imported from a missing file are reported as the missing file, not as unknown or as code', async () => {
  const page = await renderPage({
    file: 'guide/page.mdx',
    slug: 'guide/page',
    source:
      "---\ntitle: Missing\n---\n\nimport { Table } from '/snippets/table.jsx'\n\n<Table>Rows</Table>\n",
    files: new Map(),
    pageSlugs: new Set(['guide/page']),
    mode: 'lenient',
    highlighter: await createHighlighter(),
  })
  assert.deepEqual(
    page.diagnostics.map((diagnostic) => diagnostic.rule),
    ['missing-snippet'],
  )
  assert.match(page.html, /Rows/)
})
