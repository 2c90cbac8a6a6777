import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import {
  capDiagnostics,
  type Diagnostic,
  MAX_DIAGNOSTICS_BYTES,
  MAX_DIAGNOSTICS_PER_BUILD,
  MAX_DIAGNOSTICS_PER_FILE,
  MAX_MESSAGE_CHARS,
  MAX_QUOTE_CHARS,
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

test('a message quoting a 50,000-character attribute name keeps an excerpt of it and its sense', () => {
  const name = 'a'.repeat(50_000)
  const [shortened] = capDiagnostics([
    {
      severity: 'warning',
      file: 'page.mdx',
      line: 3,
      rule: 'forbidden-attribute',
      message: `Unexpected \`${name}\` on <i>, expected an attribute a page can use; it is left out`,
    },
  ])
  assert.ok(shortened)
  assert.ok(shortened.message.length <= MAX_MESSAGE_CHARS, `${shortened.message.length} characters`)
  assert.equal(
    shortened.message,
    `Unexpected \`${'a'.repeat(MAX_QUOTE_CHARS)}…\` on <i>, expected an attribute a page can use; it is left out`,
  )
  assert.equal(shortened.line, 3)
})

test('a message too long for its quotes alone is cut; a long JSON path too', () => {
  const [shortened] = capDiagnostics([
    {
      severity: 'error',
      file: 'docs.json',
      path: 'x'.repeat(10_000),
      rule: 'r',
      message: 'y'.repeat(10_000),
    },
  ])
  assert.equal(shortened?.message.length, MAX_MESSAGE_CHARS)
  assert.ok(shortened?.message.endsWith('…'))
  assert.ok((shortened?.path?.length ?? 0) <= 201)
})

test('1,001 long diagnostics are kept within the byte cap, errors first, with a count of the rest', () => {
  const long = (index: number, severity: Diagnostic['severity']): Diagnostic => ({
    severity,
    file: `page-${Math.floor(index / 90)}.mdx`,
    line: index,
    rule: 'forbidden-attribute',
    message: `Unexpected \`${String(index).padEnd(50_000, 'a')}\` on <i>, expected an attribute a page can use; it is left out ${'z'.repeat(400)}`,
  })
  const many = Array.from({ length: 1001 }, (_, index) => long(index, index === 1000 ? 'error' : 'warning'))
  const capped = capDiagnostics(many)
  const bytes = Buffer.byteLength(JSON.stringify(capped))
  assert.ok(bytes <= MAX_DIAGNOSTICS_BYTES, `${bytes} bytes kept`)
  assert.equal(capped[0]?.severity, 'error')
  const summary = capped.at(-1)
  assert.equal(summary?.rule, 'diagnostics-limit')
  const kept = capped.length - 1
  assert.equal(
    summary?.message,
    `${1001 - kept} more diagnostic(s) beyond the first ${kept} (256 KB) of the build were not kept`,
  )
  assert.ok(kept > 100, `${kept} kept`)
})

test('a page with 10,000-character attribute names builds with short diagnostics', async () => {
  // 200 KB in one element: under the 256 KB a single block may hold (a larger one is a page-limit error).
  const attributes = Array.from({ length: 20 }, (_, index) => `${'a'.repeat(10_000)}${index}="x"`).join(' ')
  const files = new Map([
    ['docs.json', encode(JSON.stringify({ name: 'Long', navigation: { pages: ['index'] } }))],
    ['index.mdx', encode(`---\ntitle: Long\n---\n\n<i ${attributes}>i</i>\n`)],
  ])
  const result = await buildSite(files, { mode: 'lenient' })
  const refused = result.diagnostics.filter((diagnostic) => diagnostic.rule === 'forbidden-attribute')
  assert.equal(refused.length, 20)
  for (const diagnostic of refused) {
    assert.ok(diagnostic.message.length <= MAX_MESSAGE_CHARS, `${diagnostic.message.length} characters`)
    assert.match(diagnostic.message, /^Unexpected `a+…` on <i>, expected an attribute/)
  }
  assert.ok(JSON.stringify(result.diagnostics).length < 20_000)
})
