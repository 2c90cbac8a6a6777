/** The diffs `docsctl migrate`, `upgrade`, `rename` and a preview's change report print. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { unifiedDiff } from '../../lib/unified-diff.js'

test('a changed line is one hunk with three lines of context, under git-style headers', () => {
  const before = 'a\nb\nc\nd\ne\nf\ng\nh\n'
  const after = before.replace('e\n', 'E\n')
  assert.equal(
    unifiedDiff('docs.json', before, after),
    '--- a/docs.json\n+++ b/docs.json\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n',
  )
})

test('equal texts give nothing; a new file comes from /dev/null; a renamed file names both', () => {
  assert.equal(unifiedDiff('x.md', 'same\n', 'same\n'), '')
  assert.equal(
    unifiedDiff('new.md', '', 'one\ntwo\n'),
    '--- /dev/null\n+++ b/new.md\n@@ -0,0 +1,2 @@\n+one\n+two\n',
  )
  assert.equal(
    unifiedDiff('docs.json', '{}\n', '{ }\n', 'mint.json'),
    '--- a/mint.json\n+++ b/docs.json\n@@ -1,1 +1,1 @@\n-{}\n+{ }\n',
  )
})

test('changes far apart are separate hunks', () => {
  const lines = Array.from({ length: 20 }, (_, n) => `line ${n}`)
  const after = lines.map((line, n) => (n === 1 || n === 18 ? `${line}!` : line))
  const diff = unifiedDiff('p.md', `${lines.join('\n')}\n`, `${after.join('\n')}\n`)
  assert.deepEqual(diff.match(/^@@ .* @@$/gm), ['@@ -1,5 +1,5 @@', '@@ -16,5 +16,5 @@'])
})
