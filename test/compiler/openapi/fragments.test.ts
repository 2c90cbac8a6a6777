/**
 * Generated API pages are parsed block by block (compiler/openapi/fragments.ts). The tree must be the
 * one a parse of the whole page gives, positions and expression locations included, for every
 * generated page of the fixture site and the public specs; and an index that does not match the page,
 * or a page whose blocks depend on each other, is parsed whole.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { VFile } from 'vfile'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { loadConfig } from '../../../compiler/config/index.js'
import { createPageProcessor } from '../../../compiler/content/processor.js'
import { decodeUtf8, type SourceFiles } from '../../../compiler/files.js'
import {
  FRAGMENTS_FOLDER,
  fragmentsPath,
  pageFromBlocks,
  parseInFragments,
} from '../../../compiler/openapi/fragments.js'
import { expandApiReference } from '../../../compiler/openapi/index.js'
import { readFixture } from '../build/helpers.js'

const processor = createPageProcessor()

/** Every page the API stage wrote with a fragment index: operation pages, and `openapi:` pages with their own MDX. */
async function indexedPages(
  files: SourceFiles,
): Promise<{ file: string; source: string; index: Uint8Array }[]> {
  const { config, navigation } = loadConfig(files, { mode: 'lenient' })
  const reference = await expandApiReference(new Map(files), config!, navigation!, 'lenient')
  return [...reference.files].flatMap(([path, index]) => {
    if (!path.startsWith(FRAGMENTS_FOLDER)) return []
    const file = path.slice(FRAGMENTS_FOLDER.length, -'.json'.length)
    return [{ file, source: decodeUtf8(reference.files.get(file)!)!, index }]
  })
}

const publicSpec = (spec: string): SourceFiles =>
  new Map([
    [spec, readFileSync(fromPackageRoot('test', 'compiler', 'openapi', 'fixtures', 'public', spec))],
    [
      'docs.json',
      new TextEncoder().encode(
        JSON.stringify({ name: 'Public', navigation: { tabs: [{ tab: 'API', openapi: spec }] } }),
      ),
    ],
  ])

test('a generated page parsed block by block is the tree of the whole page', async (t) => {
  const sites: [string, SourceFiles][] = [
    ['fixtures/api-reference', readFixture(fromPackageRoot('fixtures', 'api-reference'))],
    ...['petstore-3.0.json', 'petstore-3.1.yaml', 'petstore-2.0.json', 'schema-circular-3.0.json'].map(
      (spec): [string, SourceFiles] => [spec, publicSpec(spec)],
    ),
  ]
  const compared: string[] = []
  for (const [name, files] of sites) {
    const pages = await indexedPages(files)
    assert.ok(pages.length > 0, `${name} generates pages`)
    for (const page of pages) {
      const whole = processor.parse(new VFile({ path: page.file, value: page.source }))
      const blocks = parseInFragments(processor, page.file, page.source, page.index)
      assert.ok(blocks, `${page.file} is parsed block by block`)
      assert.deepStrictEqual(blocks, whole, `${name}: ${page.file}`)
      // Again, now from the parsed blocks kept from the first time.
      assert.deepStrictEqual(parseInFragments(processor, page.file, page.source, page.index), whole)
      compared.push(page.file)
    }
  }
  t.diagnostic(`${compared.length} pages compared with their whole parse`)
  assert.ok(compared.includes('reference/get-plant.mdx'), 'an openapi: page with its own MDX is among them')
})

test('a fragment index uploaded with the site is dropped: only the API stage splits a page', async () => {
  const page = '---\ntitle: Mine\n---\n\nOne.\n\nTwo.\n'
  const uploaded = pageFromBlocks('---\ntitle: Mine\n---\n\n', ['One.', 'Two.'])
  assert.equal(uploaded.source, page)
  const files: SourceFiles = new Map([
    [
      'docs.json',
      new TextEncoder().encode(JSON.stringify({ name: 'Mine', navigation: { pages: ['mine'] } })),
    ],
    ['mine.mdx', new TextEncoder().encode(page)],
    [fragmentsPath('mine.mdx'), uploaded.index],
  ])
  const { config, navigation } = loadConfig(files, { mode: 'lenient' })
  const reference = await expandApiReference(files, config!, navigation!, 'lenient')
  assert.equal(reference.files.has(fragmentsPath('mine.mdx')), false)
  assert.equal(reference.files.get('mine.mdx'), files.get('mine.mdx'))
})

test('a stale index or blocks that depend on each other mean a whole parse', () => {
  const front = '---\ntitle: Links\n---\n\n'
  const linked = pageFromBlocks(front, ['See [the guide][guide].', '[guide]: https://example.com/guide'])
  assert.equal(parseInFragments(processor, 'links.mdx', linked.source, linked.index), undefined)

  const page = pageFromBlocks(front, [
    '## Body',
    '<ParamField body="name" type="string" required>\n\nThe name.\n\n</ParamField>',
  ])
  assert.ok(parseInFragments(processor, 'page.mdx', page.source, page.index))
  assert.equal(parseInFragments(processor, 'page.mdx', `${page.source}More.\n`, page.index), undefined)
  assert.equal(parseInFragments(processor, 'page.mdx', page.source, new TextEncoder().encode('{')), undefined)

  const thematicBreak = pageFromBlocks(front, ['Intro.', '---\n\nAfter a rule.'])
  assert.equal(parseInFragments(processor, 'rule.mdx', thematicBreak.source, thematicBreak.index), undefined)

  // A fence that a list item's end leaves open (the closing line opens a new one) runs to the page's end.
  const openFence = pageFromBlocks(front, ['- item\n\n  ```js\n  code\n```', '## After'])
  const whole = processor.parse(new VFile({ path: 'fence.mdx', value: openFence.source }))
  assert.equal(whole.children.at(-1)?.type, 'code', 'the whole page ends in the open fence')
  assert.equal(parseInFragments(processor, 'fence.mdx', openFence.source, openFence.index), undefined)
  const openMath = pageFromBlocks(front, ['$$\nx^2', '## After'])
  assert.equal(parseInFragments(processor, 'math.mdx', openMath.source, openMath.index), undefined)
  const closed = pageFromBlocks(front, ['```js\ncode\n```', '$$\nx^2\n$$', '## After'])
  assert.deepStrictEqual(
    parseInFragments(processor, 'closed.mdx', closed.source, closed.index),
    processor.parse(new VFile({ path: 'closed.mdx', value: closed.source })),
  )

  const unclosed = pageFromBlocks(front, ['<ParamField body="name">', 'Text.', '</ParamField>'])
  assert.equal(parseInFragments(processor, 'split.mdx', unclosed.source, unclosed.index), undefined)
})
