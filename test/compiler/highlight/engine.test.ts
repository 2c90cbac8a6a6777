import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test } from 'node:test'
import { createSeparateHighlighter } from '../../../compiler/highlight/index.js'
import { corpusRoot, corpusSites } from '../../corpus.js'

/**
 * Fenced code blocks (language and code) of the real-world corpus, each distinct one once: the first
 * `perLanguage` of every language in a stable order, so each grammar is compared on real code and the
 * test stays quick (all 6,010 blocks agreed when the engines were switched; `perLanguage` Infinity).
 */
async function corpusCodeBlocks(perLanguage: number): Promise<[string, string][]> {
  const blocks = new Map<string, [string, string]>()
  for (const site of corpusSites) {
    const root = join(corpusRoot, site)
    for (const name of await readdir(root, { recursive: true })) {
      if (!/\.mdx?$/.test(name)) continue
      const source = await readFile(join(root, name), 'utf8')
      for (const match of source.matchAll(/^```(\w[\w+-]*)[^\n]*\n([\s\S]*?)\n```$/gm)) {
        const block: [string, string] = [match[1]!, match[2]!]
        blocks.set(block.join('\0'), block)
      }
    }
  }
  const byLanguage = new Map<string, [string, string][]>()
  for (const key of [...blocks.keys()].sort()) {
    const block = blocks.get(key)!
    const same = byLanguage.get(block[0]) ?? []
    if (same.length < perLanguage) same.push(block)
    byLanguage.set(block[0], same)
  }
  return [...byLanguage.values()].flat()
}

test('the JavaScript regex engine highlights corpus code blocks of every language exactly as oniguruma does', async (t) => {
  const oniguruma = await createSeparateHighlighter({ engine: 'oniguruma' })
  const javascript = await createSeparateHighlighter({ engine: 'javascript' })
  const blocks = await corpusCodeBlocks(15)
  const languages = new Set<string>()
  for (const [lang, code] of blocks) {
    const expected = await oniguruma.highlight(code, lang)
    assert.deepEqual(await javascript.highlight(code, lang), expected, `${lang}:\n${code.slice(0, 200)}`)
    if (expected) languages.add(lang)
  }
  assert.ok(languages.size > 10, 'the corpus covers many languages')
  t.diagnostic(`${blocks.length} code blocks in ${languages.size} languages compared`)
})
