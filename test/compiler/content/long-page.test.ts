/**
 * A long page is parsed in groups of top-level blocks (compiler/content/long-page.ts): the tree must
 * be the one a parse of the whole page gives, for every construct that spans blank lines or refers
 * across blocks; and one block too large to parse safely is refused with its line.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Root } from 'mdast'
import { VFile } from 'vfile'
import { outlineJsx } from '../../../compiler/content/jsx-outline.js'
import { LONG_PAGE_BYTES, parseLongPage } from '../../../compiler/content/long-page.js'
import { createPageProcessor } from '../../../compiler/content/processor.js'
import { MAX_BLOCK_BYTES } from '../../../compiler/content/remark-jsx-limit.js'
import { PageLimitError } from '../../../compiler/content/remark-nesting-limit.js'

const processor = createPageProcessor()

// Everything that spans blank lines or reaches across blocks, once per section.
const section = (n: number) => `## Section ${n}

Text with a [reference][ref] and a footnote[^note].

<Card title="Card ${n}">

  Paragraph inside the card.

</Card>

- a loose list

- of items

  continued

\`\`\`ts
<NotJsx>

# not a heading
\`\`\`

$$
x^2

y
$$

export const value${n} = {

  a: 1,
}

<Tabs>
  <Tab title="One">

    Inside a tab.

  </Tab>
</Tabs>

> quote
lazy line

| a | b |
| - | - |
| 1 | 2 |

`

/** The tree without MDX expressions' estree programs (whose places the parser itself moves inconsistently). */
const comparable = (tree: Root): unknown =>
  JSON.parse(JSON.stringify(tree.children, (key, value) => (key === 'estree' ? undefined : value)))

test('a long page parsed in groups of blocks is the tree of the whole page', () => {
  let body = '---\ntitle: Long\n---\n\n'
  for (let n = 0; body.length <= LONG_PAGE_BYTES; n++) body += section(n)
  body += '[ref]: /guide\n\n[^note]: The note.\n'
  const file = new VFile({ path: 'long.mdx', value: body })
  const whole = processor.parse(new VFile({ path: 'long.mdx', value: body })) as Root
  const groups = parseLongPage(processor, file, body)
  assert.ok(groups, 'parsed in groups')
  assert.deepStrictEqual(comparable(groups), comparable(whole))
  assert.ok(outlineJsx(body).starts.length > 100, 'split into blocks')
})

test('a short page is parsed whole', () => {
  const body = section(0)
  assert.equal(parseLongPage(processor, new VFile({ path: 'short.mdx', value: body }), body), undefined)
})

test('blocks start only where no element, expression, fence or list is open', () => {
  const source = section(0)
  const starts = outlineJsx(source).starts.map((start) => source.slice(start, source.indexOf('\n', start)))
  assert.deepEqual(starts, [
    '## Section 0',
    'Text with a [reference][ref] and a footnote[^note].',
    '<Card title="Card 0">',
    'export const value0 = {',
    '<Tabs>',
  ])
})

test('one block too large to parse safely is refused with its line', () => {
  const body = `# Title\n\n${'word '.repeat(LONG_PAGE_BYTES / 5)}\n\n<ParamField path="a">\n${'text\n'.repeat(MAX_BLOCK_BYTES / 5)}</ParamField>\n`
  assert.throws(
    () => parseLongPage(processor, new VFile({ path: 'big.mdx', value: body }), body),
    (error: unknown) =>
      error instanceof PageLimitError &&
      error.place?.line === 5 &&
      /^Unexpected block of 262176 bytes from line 5, expected at most 262144 bytes in one block/.test(
        error.message,
      ),
  )
})
