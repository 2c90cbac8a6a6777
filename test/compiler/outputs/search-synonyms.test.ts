/**
 * docs.json `search.synonyms`: validated in strict mode, written into the search index, and used by
 * the one ranking the site search and the MCP search share, both ways.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { parseSearchIndex, SEARCH_INDEX_PATH } from '../../../compiler/outputs/search-index.js'
import { search } from '../../../compiler/outputs/search-rank.js'

const encoder = new TextEncoder()

const siteWith = (synonyms: unknown) =>
  new Map<string, Uint8Array>([
    [
      'docs.json',
      encoder.encode(
        JSON.stringify({
          name: 'Acme',
          navigation: { groups: [{ group: 'Guide', pages: ['index', 'kubernetes', 'install'] }] },
          search: { synonyms },
        }),
      ),
    ],
    ['index.mdx', encoder.encode('---\ntitle: Welcome\n---\n\nHello.\n')],
    ['kubernetes.mdx', encoder.encode('---\ntitle: Run on Kubernetes\n---\n\nA Helm chart.\n')],
    ['install.mdx', encoder.encode('---\ntitle: Installation\n---\n\nGet the package.\n')],
  ])

test('synonyms find pages both ways, in the index the site and MCP search read', async () => {
  const result = await buildSite(siteWith({ k8s: ['kubernetes'], setup: ['installation guide'] }), {
    mode: 'strict',
  })
  assert.deepEqual(result.diagnostics.map(formatDiagnostic), [])
  const script = Buffer.from(result.files.get(SEARCH_INDEX_PATH) ?? new Uint8Array()).toString('utf8')
  const index = parseSearchIndex(script)
  assert.deepEqual(index.synonyms, { k8s: ['kubernetes'], setup: ['installation guide'] })
  const titles = (query: string) => search(index, query).map((hit) => hit.page.t)
  assert.deepEqual(titles('k8s'), ['Run on Kubernetes'])
  // A phrase is found when all its words are; one-word values also find their key.
  assert.deepEqual(titles('setup'), ['Installation'])
  assert.deepEqual(titles('nothing-like-it'), [])
  // The synonym is highlighted where it was found.
  assert.ok(search(index, 'k8s')[0]?.words.includes('kubernet'))
})

test('a site without synonyms keeps the index it had', async () => {
  const result = await buildSite(siteWith(undefined), { mode: 'strict' })
  const script = Buffer.from(result.files.get(SEARCH_INDEX_PATH) ?? new Uint8Array()).toString('utf8')
  assert.doesNotMatch(script, /synonyms/)
})

test('synonyms of the wrong shape are refused in strict mode', async () => {
  for (const synonyms of [{ 'two words': ['x'] }, { k8s: 'kubernetes' }, { k8s: [] }]) {
    const result = await buildSite(siteWith(synonyms), { mode: 'strict' })
    const messages = result.diagnostics.map(formatDiagnostic).join('\n')
    assert.match(messages, /search/, JSON.stringify(synonyms))
    assert.equal(result.ok, false, JSON.stringify(synonyms))
  }
})
