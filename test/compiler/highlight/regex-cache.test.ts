/**
 * shiki's JavaScript engine converts each grammar pattern once for every instance that shares its
 * `cache` (PERFORMANCE.md: grammar patterns converted once per thread): compiler/highlight/index.ts
 * hands one Map to every instance a thread makes, md and mdx blocks' own instances included.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createHighlighter } from 'shiki'
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript'
import { THEMES } from '../../../compiler/highlight/index.js'

/** The cache as compiler/highlight/index.ts passes it, counting the patterns converted into it. */
class CountingCache extends Map<string, RegExp | Error> {
  conversions = 0
  override set(pattern: string, converted: RegExp | Error): this {
    this.conversions++
    return super.set(pattern, converted)
  }
}

const mdxBlock = [
  '---',
  'title: Setup',
  '---',
  '',
  'import { Note } from "/snippets/note.jsx"',
  '',
  '# Install',
  '',
  '<Note kind="info">Run **this** first.</Note>',
  '',
  '```yaml',
  'service: api',
  '```',
].join('\n')

test('a second instance on the same cache converts no pattern again and highlights the same', async () => {
  const cache = new CountingCache()
  const highlight = async () => {
    const shiki = await createHighlighter({
      themes: [THEMES.light, THEMES.dark],
      langs: [],
      engine: createJavaScriptRegexEngine({ cache }),
    })
    try {
      await shiki.loadLanguage('mdx', 'tsx', 'yaml')
      return shiki.codeToHast(mdxBlock, {
        lang: 'mdx',
        themes: THEMES,
        defaultColor: false,
        tokenizeTimeLimit: 0,
      })
    } finally {
      shiki.dispose()
    }
  }
  const first = await highlight()
  const converted = cache.conversions
  assert.ok(
    converted > 50,
    `the first instance converted the grammars' patterns into the cache (${converted})`,
  )
  for (const [pattern, value] of cache) {
    assert.equal(typeof pattern, 'string')
    assert.ok(value instanceof RegExp || value instanceof Error, pattern)
  }
  assert.deepEqual(await highlight(), first)
  assert.equal(cache.conversions, converted, 'the second instance converted nothing')
})
