/**
 * `npm run bench:search`: how well and how fast the site search ranks (the ranking the browser and
 * each site's MCP server share, compiler/outputs/search-rank.ts). Builds the mem0 and pipecat sites
 * of ../shared/corpus (DOCS_CORPUS elsewhere), runs the 30 queries of bench/search-relevance.ts and
 * prints recall@5 and MRR, beside the substring ranking this project used before (the named peer).
 * Then p50/p99 query latency on a 1,000-page index: the two sites' pages, repeated under another
 * path until there are 1,000. It prints figures; it does not assert.
 */
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { gzipSync } from 'node:zlib'
import { fromPackageRoot } from '../compiler/assets.js'
import { buildSite } from '../compiler/build.js'
import { parseSearchIndex, SEARCH_INDEX_PATH } from '../compiler/outputs/search-index.js'
import { type IndexedPage, type SearchIndex, search } from '../compiler/outputs/search-rank.js'
import { readSiteFiles } from '../lib/site-dir.js'
import { type RelevanceQuery, relevanceSet, score } from './search-relevance.js'

const corpusRoot =
  process.env.DOCS_CORPUS ??
  [join(fromPackageRoot(), '..', 'shared', 'corpus'), '/work/shared/corpus'].find((dir) => existsSync(dir)) ??
  join(fromPackageRoot(), '..', 'shared', 'corpus')

/** The ranking before the shared one: every word as a substring, title 10 (+5 at its start), keywords 6, headings 4, body 1. */
function substringRanking(index: SearchIndex, query: string): IndexedPage[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  const scored: { page: IndexedPage; score: number }[] = []
  for (const page of index.pages) {
    const title = page.t.toLowerCase()
    const headings = page.h.join(' ').toLowerCase()
    const body = page.x.toLowerCase()
    const keywords = (page.k ?? '').toLowerCase()
    let total = 0
    let all = true
    for (const word of words) {
      const found = [
        title.includes(word),
        headings.includes(word),
        keywords.includes(word),
        body.includes(word),
      ]
      if (!found.some(Boolean)) {
        all = false
        break
      }
      total +=
        (found[0] ? 10 : 0) +
        (title.startsWith(word) ? 5 : 0) +
        (found[2] ? 6 : 0) +
        (found[1] ? 4 : 0) +
        (found[3] ? 1 : 0)
    }
    if (all) scored.push({ page, score: total })
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, 20)
    .map((hit) => hit.page)
}

async function siteIndex(name: string): Promise<{ index: SearchIndex; bytes: number; ms: number }> {
  const { files } = await readSiteFiles(join(corpusRoot, name))
  const started = performance.now()
  const result = await buildSite(files, { mode: 'lenient', workers: availableParallelism() })
  const script = result.files.get(SEARCH_INDEX_PATH)
  if (!script) throw new Error(`${name}: the build wrote no search index`)
  return {
    index: parseSearchIndex(new TextDecoder().decode(script)),
    bytes: script.length,
    ms: performance.now() - started,
  }
}

function relevance(
  indexes: Record<RelevanceQuery['corpus'], SearchIndex>,
  rank: (index: SearchIndex, query: string) => string[],
) {
  let recall = 0
  let reciprocal = 0
  const misses: string[] = []
  for (const query of relevanceSet) {
    const ranked = rank(indexes[query.corpus], query.query)
    const result = score(ranked, query.expected)
    recall += result.recall
    reciprocal += result.reciprocalRank
    if (result.rank !== 1)
      misses.push(
        `  ${query.corpus} "${query.query}": expected first at ${result.rank ?? 'none of the top 20'}`,
      )
  }
  return { recall: recall / relevanceSet.length, mrr: reciprocal / relevanceSet.length, misses }
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

async function main(): Promise<void> {
  console.log(`corpus: ${corpusRoot}`)
  const mem0 = await siteIndex('mem0')
  const pipecat = await siteIndex('pipecat')
  for (const [name, site] of [
    ['mem0', mem0],
    ['pipecat', pipecat],
  ] as const)
    console.log(
      `${name}: ${site.index.pages.length} pages in the index, ${(site.bytes / 1024).toFixed(0)} KB, built in ${(site.ms / 1000).toFixed(1)} s`,
    )
  const indexes = { mem0: mem0.index, pipecat: pipecat.index }

  const shared = relevance(indexes, (index, query) => search(index, query).map((hit) => hit.page.u))
  const peer = relevance(indexes, (index, query) => substringRanking(index, query).map((page) => page.u))
  console.log(`\nrelevance, ${relevanceSet.length} queries (bench/search-relevance.ts):`)
  console.log(
    `  site search (shared with MCP): recall@5 ${shared.recall.toFixed(3)}  MRR ${shared.mrr.toFixed(3)}`,
  )
  console.log(
    `  substring ranking (before):    recall@5 ${peer.recall.toFixed(3)}  MRR ${peer.mrr.toFixed(3)}`,
  )
  console.log(
    `  ratio: recall@5 ×${(shared.recall / peer.recall).toFixed(2)}, MRR ×${(shared.mrr / peer.mrr).toFixed(2)}`,
  )
  if (shared.misses.length) console.log(`  not first with the site search:\n${shared.misses.join('\n')}`)

  // 1,000 pages of real text: both sites, then copies of their pages under another path.
  const real = [...mem0.index.pages, ...pipecat.index.pages]
  const pages: IndexedPage[] = []
  for (let copy = 0; pages.length < 1000; copy += 1)
    for (const page of real) {
      if (pages.length === 1000) break
      pages.push(copy === 0 ? page : { ...page, u: `copy-${copy}/${page.u}` })
    }
  const large: SearchIndex = { pages }
  const json = JSON.stringify(large)
  const firstStarted = performance.now()
  search(large, relevanceSet[0]!.query)
  const first = performance.now() - firstStarted
  const timings = (rank: (query: string) => unknown): number[] => {
    const samples: number[] = []
    for (let round = 0; round < 20; round += 1)
      for (const { query } of relevanceSet) {
        const started = performance.now()
        rank(query)
        samples.push(performance.now() - started)
      }
    return samples.sort((a, b) => a - b)
  }
  const ours = timings((query) => search(large, query))
  const before = timings((query) => substringRanking(large, query))
  console.log(
    `\nlatency on ${pages.length} pages (${(json.length / 1024).toFixed(0)} KB of index JSON, ${(gzipSync(json).length / 1024).toFixed(0)} KB gzipped), ${ours.length} queries:`,
  )
  console.log(`  first query (prepares each page's fields once): ${first.toFixed(1)} ms`)
  console.log(
    `  site search: p50 ${percentile(ours, 50).toFixed(2)} ms  p99 ${percentile(ours, 99).toFixed(2)} ms`,
  )
  console.log(
    `  substring ranking (before): p50 ${percentile(before, 50).toFixed(2)} ms  p99 ${percentile(before, 99).toFixed(2)} ms`,
  )
  console.log(
    `  ratio: p50 ×${(percentile(ours, 50) / percentile(before, 50)).toFixed(2)}, p99 ×${(percentile(ours, 99) / percentile(before, 99)).toFixed(2)}`,
  )
}

await main()
