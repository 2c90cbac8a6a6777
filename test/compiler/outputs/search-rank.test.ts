/** The ranking the site search and each site's MCP server share: word forms, stop words, fields, marks. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { highlight, type IndexedPage, queryWords, search } from '../../../compiler/outputs/search-rank.js'

const page = (u: string, t: string, x: string, extra: Partial<IndexedPage> = {}): IndexedPage => ({
  u,
  t,
  h: [],
  x,
  ...extra,
})

test('a query matches other forms of its words, and question words drop out', () => {
  assert.deepEqual(queryWords('How do I delete memories?'), ['delet', 'memor'])
  assert.deepEqual(queryWords('the'), ['the'], 'a query of stop words alone still searches')
  assert.deepEqual(queryWords('llms.txt vad'), ['llms.txt', 'vad'])
  const index = {
    pages: [
      page('embedders/ollama/', 'Ollama', 'Run the embedding model locally.'),
      page('companions/ollama/', 'Self-hosted companion', 'Uses ollama for chat.'),
    ],
  }
  assert.deepEqual(
    search(index, 'ollama embeddings').map((hit) => hit.page.u),
    ['embedders/ollama/'],
    '"embeddings" finds "embedding"; pages missing a word rank below those holding all',
  )
})

test('title, then URL, section and body; a title made of the query wins; with no page holding every word, the most', () => {
  const index = {
    pages: [
      page('cookbooks/gemini-mcp/', 'Gemini 3 with Mem0 MCP', 'A server example.'),
      page('platform/mem0-mcp/', 'Mem0 MCP', 'The MCP server of the platform.'),
      page('integrations/langchain/', 'Langchain', 'Memory for chains.', { s: 'Integrations' }),
      page('vectordbs/langchain/', 'LangChain', 'A vector store.', { s: 'Vector databases' }),
    ],
  }
  assert.equal(search(index, 'mem0 mcp')[0]?.page.u, 'platform/mem0-mcp/')
  assert.equal(search(index, 'langchain integration')[0]?.page.u, 'integrations/langchain/')
  assert.deepEqual(
    search(index, 'mcp zebrafish').map((hit) => hit.page.u),
    ['platform/mem0-mcp/', 'cookbooks/gemini-mcp/'],
  )
  assert.deepEqual(search(index, '  '), [])
})

test('highlight marks whole words from their stems, escaped, without marking inside its own marks', () => {
  assert.equal(
    highlight('Memory & <mark> memories', queryWords('memories mark')),
    '<mark>Memory</mark> &amp; &lt;<mark>mark</mark>&gt; <mark>memories</mark>',
  )
})
