import assert from 'node:assert/strict'
import { test } from 'node:test'
import { headPaths, type SiteFileEntry, shardOf } from '../../../server/builds/site-manifest.js'
import {
  type ManifestEntries,
  parseManifestShard,
  type ReadManifestHead,
} from '../../../server/builds/site-manifest-store.js'
import { type ShardSource, SiteFiles } from '../../../server/sites/site-files.js'
import { routeSitePath } from '../../../serving/router.js'

const entry = (path: string): SiteFileEntry => ({
  sha256: path.padEnd(64, '0'),
  size: 1,
  contentType: 'text/html',
})
/** Entries as a shard stores them: one `[path, entry]` a line. */
const filesOf = (entries: Record<string, SiteFileEntry>): ManifestEntries =>
  parseManifestShard(
    Buffer.from(
      Object.entries(entries)
        .map((entry) => `\n${JSON.stringify(entry)}`)
        .join(''),
    ),
  )

/** A deployment of `pages` pages in `count` shards, and a source that counts its loads and may cache. */
function deployment(pages: number, count: number, cached: boolean) {
  const shards = Array.from({ length: count }, (): Record<string, SiteFileEntry> => ({}))
  for (let index = 0; index < pages; index++)
    for (const path of [`p${index}/index.html`, `p${index}.md`])
      shards[shardOf(path, count)]![path] = entry(path)
  const bySha = new Map(shards.map((shard, index) => [`shard-${index}`, filesOf(shard)]))
  const cache = new Map<string, ManifestEntries>()
  const loads: string[] = []
  const source: ShardSource = {
    peek: (sha256) => cache.get(sha256),
    load: async (sha256) => {
      loads.push(sha256)
      const shard = bySha.get(sha256)
      if (!shard) throw new Error(`no ${sha256}`)
      if (cached) cache.set(sha256, shard)
      return shard
    },
  }
  const head: ReadManifestHead = {
    files: filesOf({ 'llms.txt': entry('llms.txt') }),
    shards: [...bySha.keys()],
  }
  return { files: new SiteFiles(head, source), loads }
}

test('a lookup loads the shards it looks in, and only those', async () => {
  const { files, loads } = deployment(500, 8, true)
  assert.deepEqual(await files.get('p7/index.html'), entry('p7/index.html'))
  assert.deepEqual(loads, [`shard-${shardOf('p7/index.html', 8)}`])
  // A file of the head loads nothing.
  assert.deepEqual(await files.get('llms.txt'), entry('llms.txt'))
  assert.equal(await files.get('404.html'), undefined)
  assert.equal(loads.length, 1)
  // Every path a URL of a page is routed through, and its Markdown export, share one shard.
  const route = await files.lookup((lookup) =>
    routeSitePath('p9.html', '', { has: (path) => lookup.get(path) !== undefined }),
  )
  assert.deepEqual(route, { type: 'redirect', location: '/p9/' })
  const page = await files.lookup((lookup) => {
    const found = routeSitePath('p9/', '', { has: (path) => lookup.get(path) !== undefined })
    return { found, markdown: lookup.get('p9.md'), llms: lookup.get('llms.txt') }
  })
  assert.deepEqual(page.found, { type: 'page', path: 'p9/index.html', markdown: 'p9.md' })
  assert.deepEqual(page.markdown, entry('p9.md'))
  assert.equal(loads.length, 2, loads.join())
  assert.equal(await files.get('p9/missing.html'), undefined)
  assert.equal(await files.get('__proto__'), undefined)
  assert.equal(await files.get('constructor'), undefined)
})

test('has answers as get does, loading the shard it looks in, without reading the entry', async () => {
  const { files, loads } = deployment(100, 4, true)
  const paths = ['p3/index.html', 'p3/other.html', 'llms.txt', '404.html', '__proto__', 'p3.md']
  const answers = await files.lookup((lookup) => paths.map((path) => [lookup.has(path), lookup.get(path)]))
  assert.deepEqual(
    answers,
    paths.map((path) => {
      const present = ['p3/index.html', 'llms.txt', 'p3.md'].includes(path)
      return [present, present ? entry(path) : undefined]
    }),
  )
  const shardsOfPaths = new Set(paths.filter((path) => !headPaths.has(path)).map((path) => shardOf(path, 4)))
  assert.equal(loads.length, shardsOfPaths.size, 'each shard looked in, once')
  // The router asks `has`: a lookup can be handed to it as it is.
  assert.deepEqual(await files.lookup((lookup) => routeSitePath('p3', '', lookup)), {
    type: 'redirect',
    location: '/p3/',
  })
})

test('a lookup ends when the cache keeps nothing (a shard bigger than the whole cache)', async () => {
  const { files, loads } = deployment(300, 4, false)
  const found = await files.lookup((lookup) =>
    Array.from({ length: 300 }, (_, index) => lookup.get(`p${index}.md`) !== undefined),
  )
  assert.ok(found.every(Boolean))
  assert.equal(loads.length, 4, 'each shard once')
  assert.equal((await files.paths()).length, 601)
})

test('a manifest stored whole is a head with every file: nothing to load', async () => {
  const source: ShardSource = {
    peek: () => undefined,
    load: () => Promise.reject(new Error('a whole manifest loads nothing')),
  }
  const head = { files: filesOf({ 'index.html': entry('index.html') }), shards: [] }
  const files = new SiteFiles({ ...head, contentSecurityPolicy: "script-src 'self'" }, source)
  assert.deepEqual(await files.get('index.html'), entry('index.html'))
  assert.equal(await files.get('other.html'), undefined)
  assert.deepEqual(await files.paths(), ['index.html'])
  assert.match(files.pagePolicy, /script-src 'self'/)
})

test('a shard the store has lost fails the lookup', async () => {
  const files = new SiteFiles(
    { files: filesOf({}), shards: ['gone'] },
    {
      peek: () => undefined,
      load: (sha256) => Promise.reject(new Error(`shard ${sha256} is missing`)),
    },
  )
  await assert.rejects(files.get('index.html'), /shard gone is missing/)
})
