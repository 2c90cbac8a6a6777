import assert from 'node:assert/strict'
import { test } from 'node:test'
import { MAX_BLOCK_BYTES, MAX_JSX_NESTING } from '../../../compiler/content/remark-jsx-limit.js'
import { MAX_NESTING_DEPTH } from '../../../compiler/content/remark-nesting-limit.js'
import { MAX_SNIPPET_BYTES } from '../../../compiler/content/remark-snippets.js'
import { renderPage } from '../../../compiler/content/render-page.js'
import { createHighlighter } from '../../../compiler/highlight/index.js'

const encode = (value: string) => new TextEncoder().encode(value)

async function render(body: string, files = new Map<string, Uint8Array>()) {
  const started = performance.now()
  const page = await renderPage({
    file: 'guide/page.mdx',
    slug: 'guide/page',
    source: `---\ntitle: Starve\n---\n\n${body}\n`,
    files,
    pageSlugs: new Set(['guide/page']),
    mode: 'lenient',
    highlighter: await createHighlighter(),
  })
  return { page, ms: performance.now() - started }
}

// The pages of issue 10 that each held a build worker for ten minutes; each must end with a reason.
for (const [name, body, rule] of [
  ['block quotes 100,000 deep', `${'> '.repeat(100_000)}x`, 'page-limit'],
  ['list items 100,000 deep', `${'- '.repeat(100_000)}x`, 'page-limit'],
  ['ordered list items nested on later lines', `x\n\n${'1. '.repeat(MAX_NESTING_DEPTH + 1)}x`, 'page-limit'],
] as const) {
  test(`a page of ${name} ends with an error that names the line`, async (t) => {
    const { page, ms } = await render(body)
    t.diagnostic(`rendered in ${Math.round(ms)} ms`)
    const [limit] = page.diagnostics.filter((diagnostic) => diagnostic.rule === rule)
    assert.equal(limit?.severity, 'error')
    assert.equal(limit?.file, 'guide/page.mdx')
    assert.match(limit?.message ?? '', /nested block quotes or list items on line \d+/)
    assert.equal(page.title, 'Starve', 'front matter is kept')
  })
}

test('a page of 100,000 <i onclick> in one paragraph ends with an error that names the block and its line', async (t) => {
  const { page, ms } = await render(`Intro.\n\n${'<i onclick="x()">i</i> '.repeat(100_000)}`)
  t.diagnostic(`rendered in ${Math.round(ms)} ms`)
  assert.deepEqual(page.diagnostics, [
    {
      severity: 'error',
      file: 'guide/page.mdx',
      rule: 'page-limit',
      message: `Unexpected block of 2300001 bytes from line 7, expected at most ${MAX_BLOCK_BYTES} bytes in one block (a paragraph, a table, or an element with everything inside it); split it with blank lines between top-level elements, the page is not rendered`,
      line: 7,
      column: 1,
    },
  ])
  assert.equal(page.title, 'Starve', 'front matter is kept')
})

// A long reference page of 15,000 components renders every field: test/compiler/build/page-heap.test.ts (slow tier).

for (const [name, body] of [
  [
    'elements on their own lines',
    `${'<div>\n'.repeat(MAX_JSX_NESTING + 1)}x\n${'</div>\n'.repeat(MAX_JSX_NESTING + 1)}`,
  ],
  ['elements on one line', `${'<b>'.repeat(50_000)}x${'</b>'.repeat(50_000)}`],
] as const) {
  test(`JSX ${name} nested past the limit end with an error that names the line`, async (t) => {
    const { page, ms } = await render(`Intro.\n\n${body}`)
    t.diagnostic(`rendered in ${Math.round(ms)} ms`)
    const [limit, ...others] = page.diagnostics
    assert.deepEqual(others, [])
    assert.equal(limit?.rule, 'page-limit')
    assert.match(
      limit?.message ?? '',
      new RegExp(`^Unexpected JSX elements nested more than ${MAX_JSX_NESTING} deep \\(line \\d+\\)`),
    )
  })
}

test('JSX nested up to the limit renders', async () => {
  const depth = MAX_JSX_NESTING
  const { page } = await render(`${'<div>\n'.repeat(depth)}deep\n${'</div>\n'.repeat(depth)}`)
  assert.deepEqual(page.diagnostics, [])
  assert.equal(page.html.split('<div>').length - 1, depth)
})

test('nesting up to the limit still renders', async () => {
  const { page } = await render(`${'> '.repeat(20)}${'- '.repeat(20)}deep`)
  assert.deepEqual(page.diagnostics, [])
  assert.match(page.html, /deep/)
})

test('a page of 50,000 "[" renders as text', async (t) => {
  const { page, ms } = await render('['.repeat(50_000))
  t.diagnostic(`rendered in ${Math.round(ms)} ms`)
  assert.equal(page.html.split('[').length - 1, 50_000)
})

test('a 2 MB snippet included 500 times stops at the snippet byte limit', async (t) => {
  const big = encode('word '.repeat(15).concat('\n\n').repeat(26_000))
  const { page, ms } = await render(
    '<Snippet file="big.mdx" />\n\n'.repeat(500),
    new Map([['snippets/big.mdx', big]]),
  )
  t.diagnostic(`rendered in ${Math.round(ms)} ms`)
  const limits = page.diagnostics.filter((diagnostic) => diagnostic.rule === 'snippet-limit')
  assert.equal(limits.length, 1, 'reported once')
  assert.equal(limits[0]?.severity, 'error')
  assert.match(limits[0]?.message ?? '', /bytes of snippets on one page at snippets\/big\.mdx/)
})

test('snippets under the byte limit are inlined until the limit, then left out', async () => {
  const part = encode(`${'x'.repeat(MAX_SNIPPET_BYTES / 4 - 10)}\n`)
  const { page } = await render(
    '<Snippet file="part.mdx" />\n\n'.repeat(6),
    new Map([['snippets/part.mdx', part]]),
  )
  assert.equal(page.html.match(/<p>x+<\/p>/g)?.length, 4)
  assert.equal(page.diagnostics.filter((diagnostic) => diagnostic.rule === 'snippet-limit').length, 1)
})

test('a snippet nested too deep is an error where it is included, the page still renders', async () => {
  const deep = encode(`${'> '.repeat(MAX_NESTING_DEPTH + 1)}x`)
  const { page } = await render(
    'before\n\n<Snippet file="deep.mdx" />',
    new Map([['snippets/deep.mdx', deep]]),
  )
  assert.match(page.html, /before/)
  const [limit] = page.diagnostics.filter((diagnostic) => diagnostic.rule === 'page-limit')
  assert.equal(limit?.severity, 'error')
  assert.match(limit?.message ?? '', /^snippets\/deep\.mdx: Unexpected more than 100 nested/)
})
