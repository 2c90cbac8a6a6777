import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Root } from 'mdast'
import { type Options, toMarkdown } from 'mdast-util-to-markdown'
import { toMarkdownNarrowed } from '../../../compiler/content/markdown-escapes.js'
import { createPageProcessor } from '../../../compiler/content/processor.js'
import { corpusRoot } from '../../corpus.js'

const processor = createPageProcessor()
/** The serialiser extensions the page processor's plugins registered (GFM, math, frontmatter, MDX). */
const extensionsOf = (reader: unknown): Options['extensions'] =>
  (reader as { data(key: string): Options['extensions'] }).data('toMarkdownExtensions') ?? []
const options = (): Options => ({
  extensions: extensionsOf(processor),
  bullet: '-',
  emphasis: '_',
  rule: '-',
})

function pagesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return pagesOf(path)
    return /\.mdx?$/.test(entry) ? [path] : []
  })
}

test('escaping with only the patterns a value can match gives toMarkdown’s output, on the x402 and mem0 pages', (t) => {
  let compared = 0
  let escaped = 0
  for (const site of ['x402', 'mem0']) {
    for (const path of pagesOf(join(corpusRoot, site))) {
      let tree: Root
      try {
        tree = processor.parse(readFileSync(path, 'utf8')) as Root
      } catch {
        continue // Not valid MDX as written: the renderer repairs it first.
      }
      const expected = toMarkdown(tree, options())
      assert.equal(toMarkdownNarrowed(tree, options()), expected, path)
      compared++
      if (expected.includes('\\')) escaped++
    }
  }
  t.diagnostic(`${compared} pages compared, ${escaped} with escapes`)
  assert.ok(compared > 200 && escaped > 40)
})

test('values that need escapes keep every one of them', () => {
  const values = [
    'a_b and _c_ and __d__ and a__b',
    '*star* and ** and 2 * 3',
    '<div> and <3 and a < b and {expression} and }',
    'line one\n# not a heading\n1. not a list\n- not a bullet\n> not a quote\n=== not setext',
    'back\\slash \\* and \\_ and trailing \\',
    '[link](url) ![image](src) [ref][] and `code` and ``',
    '~~strike~~ and ~one~ | pipe | and $math$ and $$',
    'http://example.com and www.example.com and a@b.co',
    '&amp; &copy; &#123; and & alone',
    '  leading spaces\ttab\n\ttab line  \nend',
    '!',
    '[',
    '_',
    '\\',
    '<',
    '{',
    '#',
    '1.',
    '-',
  ]
  for (const value of values) {
    for (const wrap of ['paragraph', 'emphasis', 'strong', 'link', 'heading', 'tableCell'] as const) {
      const text = { type: 'text' as const, value }
      const before = { type: 'text' as const, value: '!' }
      const after = { type: 'text' as const, value: '_' }
      const phrasing =
        wrap === 'emphasis' || wrap === 'strong'
          ? [before, { type: wrap, children: [text] }, after]
          : wrap === 'link'
            ? [before, { type: 'link' as const, url: 'https://x.test/a b', children: [text] }, after]
            : [before, text, after]
      const tree: Root =
        wrap === 'heading'
          ? { type: 'root', children: [{ type: 'heading', depth: 2, children: phrasing }] }
          : wrap === 'tableCell'
            ? {
                type: 'root',
                children: [
                  {
                    type: 'table',
                    children: [{ type: 'tableRow', children: [{ type: 'tableCell', children: phrasing }] }],
                  },
                ],
              }
            : { type: 'root', children: [{ type: 'paragraph', children: phrasing }] }
      assert.equal(toMarkdownNarrowed(tree, options()), toMarkdown(tree, options()), `${wrap}: ${value}`)
    }
  }
})
