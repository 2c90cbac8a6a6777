import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import {
  capDiagnostics,
  type Diagnostic,
  MAX_DIAGNOSTICS_PER_BUILD,
  MAX_DIAGNOSTICS_PER_FILE,
} from '../../../compiler/diagnostics.js'

const encode = (value: string) => new TextEncoder().encode(value)

const warnings = (file: string, count: number): Diagnostic[] =>
  Array.from({ length: count }, (_, index) => ({
    severity: 'warning',
    file,
    line: index + 1,
    rule: 'unsafe-attribute',
    message: `warning ${index}`,
  }))

test('diagnostics are capped per file and per build, with a count of the rest', () => {
  const many = Array.from({ length: 30 }, (_, index) => warnings(`page-${index}.mdx`, 150)).flat()
  const capped = capDiagnostics(many)
  assert.ok(capped.length <= MAX_DIAGNOSTICS_PER_BUILD + 1, `${capped.length} kept`)
  const ofFirst = capped.filter((diagnostic) => diagnostic.file === 'page-0.mdx')
  assert.equal(ofFirst.length, MAX_DIAGNOSTICS_PER_FILE + 1)
  assert.equal(
    ofFirst.at(-1)?.message,
    '50 more diagnostic(s) of this file beyond the first 100 were not kept',
  )
  const overall = capped.at(-1)
  assert.equal(overall?.rule, 'diagnostics-limit')
  // 30 × 150 = 4,500: 1,000 slots hold 100 and a count for each of 9 pages and 91 of the tenth page.
  assert.equal(capped.length, MAX_DIAGNOSTICS_PER_BUILD + 1)
  assert.equal(overall?.message, '3059 more diagnostic(s) beyond the first 1000 of the build were not kept')
})

test('an error is never capped away: errors are kept first', () => {
  const error: Diagnostic = { severity: 'error', file: 'z.mdx', rule: 'render-failed', message: 'broken' }
  const capped = capDiagnostics([...warnings('a.mdx', 5000), error], 10, 20)
  assert.ok(capped.some((diagnostic) => diagnostic.message === 'broken'))
})

test('a page of a thousand <i onclick> stores at most a hundred diagnostics and a count', async () => {
  const files = new Map([
    ['docs.json', encode(JSON.stringify({ name: 'Flood', navigation: { pages: ['index', 'other'] } }))],
    ['index.mdx', encode(`---\ntitle: Flood\n---\n\n${'<i onclick="x()">i</i> '.repeat(1000)}\n`)],
    ['other.mdx', encode('---\ntitle: Other\n---\n\nFine.\n')],
  ])
  const result = await buildSite(files, { mode: 'lenient' })
  const ofPage = result.diagnostics.filter((diagnostic) => diagnostic.file === 'index.mdx')
  assert.ok(ofPage.length > 1 && ofPage.length <= MAX_DIAGNOSTICS_PER_FILE + 1, `${ofPage.length} kept`)
  assert.match(ofPage.find((d) => d.rule === 'diagnostics-limit')?.message ?? '', /^\d+ more diagnostic/)
  assert.ok(JSON.stringify(result.diagnostics).length < 30_000)
  assert.ok(result.files.has('other/index.html'))
})
