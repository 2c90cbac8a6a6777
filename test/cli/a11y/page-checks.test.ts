import assert from 'node:assert/strict'
import { test } from 'node:test'
import { pageProblems } from '../../../cli/a11y/page-checks.js'

const rules = (file: string, source: string) =>
  pageProblems(file, source).map(
    ({ rule, line, column, severity }) => `${severity} ${rule} ${line}:${column}`,
  )

test('an h1 under a page title and a first heading that skips h2 are reported; a page without a title may start at h1', () => {
  assert.deepEqual(rules('a.mdx', '---\ntitle: A\n---\n\n# Again\n'), ['warning heading-order 5:1'])
  assert.deepEqual(rules('b.mdx', '---\ntitle: B\n---\n\n### Three\n'), ['warning heading-order 5:1'])
  assert.deepEqual(rules('c.md', '# One\n\n## Two\n\n<h3>Three</h3>\n'), [])
})

test('a link labelled with aria-label or an image with alt text has a name; tildes fence code too', () => {
  const source = [
    '<a href="/x" aria-label="Settings"><Icon icon="gear" /></a>',
    '<a href="/y"><img src="/logo.png" alt="Home" /></a>',
    '~~~',
    '![](/in-code.png)',
    '~~~',
    '[Read more.](/z)',
    '',
  ].join('\n')
  assert.deepEqual(rules('d.mdx', source), ['warning link-text 6:1'])
})
