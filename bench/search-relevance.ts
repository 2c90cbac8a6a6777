/**
 * The relevance set of `npm run bench:search`: queries a reader would type on two real sites from
 * ../shared/corpus, each with the pages they would expect near the top (site paths as the search
 * index writes them). Chosen by reading the sites' navigation, before tuning the ranking.
 */
export interface RelevanceQuery {
  corpus: 'mem0' | 'pipecat'
  query: string
  expected: string[]
}

export const relevanceSet: RelevanceQuery[] = [
  { corpus: 'mem0', query: 'add memory', expected: ['core-concepts/memory-operations/add/'] },
  {
    corpus: 'mem0',
    query: 'delete memories',
    expected: ['core-concepts/memory-operations/delete/', 'api-reference/memory/delete-memories/'],
  },
  { corpus: 'mem0', query: 'graph memory', expected: ['platform/features/graph-memory/'] },
  { corpus: 'mem0', query: 'webhooks', expected: ['platform/features/webhooks/'] },
  { corpus: 'mem0', query: 'qdrant', expected: ['components/vectordbs/dbs/qdrant/'] },
  { corpus: 'mem0', query: 'ollama embeddings', expected: ['components/embedders/models/ollama/'] },
  { corpus: 'mem0', query: 'python quickstart', expected: ['open-source/python-quickstart/'] },
  { corpus: 'mem0', query: 'node sdk', expected: ['open-source/node-quickstart/'] },
  {
    corpus: 'mem0',
    query: 'reranker',
    expected: ['components/rerankers/overview/', 'open-source/features/reranker-search/'],
  },
  { corpus: 'mem0', query: 'metadata filtering', expected: ['open-source/features/metadata-filtering/'] },
  { corpus: 'mem0', query: 'langchain integration', expected: ['integrations/langchain/'] },
  { corpus: 'mem0', query: 'export memories', expected: ['platform/features/memory-export/'] },
  { corpus: 'mem0', query: 'self hosted setup', expected: ['open-source/setup/'] },
  { corpus: 'mem0', query: 'memory expiration', expected: ['platform/features/memory-expiration/'] },
  { corpus: 'mem0', query: 'mcp server', expected: ['platform/mem0-mcp/'] },
  { corpus: 'pipecat', query: 'quickstart', expected: ['pipecat/get-started/quickstart/'] },
  { corpus: 'pipecat', query: 'function calling', expected: ['pipecat/learn/function-calling/'] },
  {
    corpus: 'pipecat',
    query: 'deepgram speech to text',
    expected: ['api-reference/server/services/stt/deepgram/'],
  },
  { corpus: 'pipecat', query: 'elevenlabs tts', expected: ['api-reference/server/services/tts/elevenlabs/'] },
  {
    corpus: 'pipecat',
    query: 'twilio websocket',
    expected: ['pipecat/telephony/twilio-websockets/', 'pipecat-cloud/guides/telephony/twilio-websocket/'],
  },
  { corpus: 'pipecat', query: 'interruptions', expected: ['pipecat/fundamentals/interruptions/'] },
  { corpus: 'pipecat', query: 'voicemail detection', expected: ['pipecat/fundamentals/voicemail/'] },
  { corpus: 'pipecat', query: 'deploy to fly', expected: ['pipecat/deployment/platforms/fly/'] },
  {
    corpus: 'pipecat',
    query: 'silero vad',
    expected: ['api-reference/server/services/vad/silero-vad-analyzer/'],
  },
  { corpus: 'pipecat', query: 'openai llm', expected: ['api-reference/server/services/llm/openai/'] },
  { corpus: 'pipecat', query: 'recording audio', expected: ['pipecat/fundamentals/recording-audio/'] },
  { corpus: 'pipecat', query: 'pipecat flows', expected: ['pipecat-flows/introduction/', 'overview/flows/'] },
  { corpus: 'pipecat', query: 'react hooks', expected: ['api-reference/client/react/hooks/'] },
  { corpus: 'pipecat', query: 'idle user', expected: ['pipecat/fundamentals/detecting-user-idle/'] },
  { corpus: 'pipecat', query: 'saving transcripts', expected: ['pipecat/fundamentals/saving-transcripts/'] },
]

/** Recall@k and reciprocal rank of one ranked list of site paths against the expected ones. */
export function score(ranked: readonly string[], expected: readonly string[], k = 5) {
  const top = new Set(ranked.slice(0, k))
  const recall = expected.filter((path) => top.has(path)).length / expected.length
  const first = ranked.findIndex((path) => expected.includes(path))
  return {
    recall,
    reciprocalRank: first === -1 ? 0 : 1 / (first + 1),
    rank: first === -1 ? undefined : first + 1,
  }
}
