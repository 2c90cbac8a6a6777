import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type TestContext, test } from 'node:test'
import { FilesystemBlobStore } from '../../../server/blobs/filesystem.js'
import { filesPerShard, type SiteManifest, shardKey, shardOf } from '../../../server/builds/site-manifest.js'
import {
  parseManifestHead,
  parseManifestShard,
  readSiteManifest,
  storeSiteManifest,
} from '../../../server/builds/site-manifest-store.js'

async function store(t: Pick<TestContext, 'after'>) {
  const root = await mkdtemp(join(tmpdir(), 'manifest-'))
  t.after(() => rm(root, { recursive: true, force: true }))
  return new FilesystemBlobStore(root)
}

/** A manifest of `pages` pages and their Markdown exports (entries need not name stored blobs here). */
function manifestOf(pages: number): SiteManifest {
  const files: SiteManifest['files'] = {}
  for (let index = 0; index < pages; index++) {
    const entry = { sha256: String(index).padStart(64, '0'), size: index, contentType: 'text/html' }
    files[`page-${index}/index.html`] = entry
    files[`page-${index}.md`] = { ...entry, contentType: 'text/markdown' }
  }
  files['llms.txt'] = { sha256: 'f'.repeat(64), size: 1, contentType: 'text/plain' }
  return { version: 1, files, contentSecurityPolicy: "script-src 'self'" }
}

test('a manifest is stored as a head and shards of about 128 entries, and read back whole and in order', async (t) => {
  const blobs = await store(t)
  const manifest = manifestOf(500)
  const sha256 = await storeSiteManifest(blobs, manifest)
  const head = parseManifestHead((await blobs.get(sha256))!)
  assert.equal(head.shards.length, Math.ceil(1000 / filesPerShard))
  assert.deepEqual(
    head.files.all().map(([path]) => path),
    ['llms.txt'],
    'files every request may look up are in the head',
  )
  assert.equal(head.contentSecurityPolicy, "script-src 'self'")
  // Every entry sits in the shard its path hashes to, and the shards are of similar size.
  for (const [index, shard] of head.shards.entries()) {
    const entries = parseManifestShard((await blobs.get(shard))!)
      .all()
      .map(([path]) => path)
    assert.ok(entries.every((path) => shardOf(path, head.shards.length) === index))
    // A page and its Markdown export share a shard.
    for (const path of entries.filter((path) => path.endsWith('.md')))
      assert.ok(entries.includes(`${path.slice(0, -3)}/index.html`), path)
    assert.ok(entries.length > filesPerShard / 2 && entries.length < filesPerShard * 2, `${entries.length}`)
  }
  const read = await readSiteManifest(blobs, sha256)
  assert.ok(read)
  assert.deepEqual(read.parts, head.shards)
  assert.deepEqual(
    Object.keys(read.manifest.files),
    Object.keys(manifest.files).sort((a, b) => a.localeCompare(b)),
  )
  assert.deepEqual({ ...read.manifest.files }, manifest.files)
  assert.equal(read.manifest.contentSecurityPolicy, manifest.contentSecurityPolicy)
  // Equal sites are equal blobs: storing the same manifest again names the same head.
  assert.equal(await storeSiteManifest(blobs, manifestOf(500)), sha256)
})

test('a site of a shard or less is its head alone, an empty one too', async (t) => {
  const blobs = await store(t)
  for (const pages of [0, 3, filesPerShard / 2 - 1]) {
    const manifest = manifestOf(pages)
    const sha256 = await storeSiteManifest(blobs, manifest)
    const head = parseManifestHead((await blobs.get(sha256))!)
    assert.equal(head.shards.length, 0, `${pages} pages`)
    assert.deepEqual(Object.fromEntries(head.files.all()), manifest.files)
    assert.deepEqual({ ...(await readSiteManifest(blobs, sha256))?.manifest.files }, manifest.files)
  }
})

test('a manifest stored whole, before parts existed, is read as it was', async (t) => {
  const blobs = await store(t)
  const manifest = manifestOf(200)
  const sha256 = await blobs.put(Buffer.from(JSON.stringify(manifest)))
  const read = await readSiteManifest(blobs, sha256)
  assert.ok(read)
  assert.deepEqual(read.parts, [])
  assert.deepEqual({ ...read.manifest.files }, manifest.files)
  assert.equal(read.manifest.contentSecurityPolicy, manifest.contentSecurityPolicy)
})

test('a manifest whose head or a shard the store has lost reads as missing', async (t) => {
  const blobs = await store(t)
  const sha256 = await storeSiteManifest(blobs, manifestOf(300))
  const head = parseManifestHead((await blobs.get(sha256))!)
  await blobs.delete([head.shards[1]!])
  assert.equal(await readSiteManifest(blobs, sha256), undefined)
  assert.equal(await readSiteManifest(blobs, 'f'.repeat(64)), undefined)
})

test('no path of a manifest is an inherited property', async (t) => {
  const blobs = await store(t)
  const entry = { sha256: '0'.repeat(64), size: 1, contentType: 'text/plain' }
  const manifest: SiteManifest = { version: 1, files: JSON.parse(`{"__proto__": ${JSON.stringify(entry)}}`) }
  const read = await readSiteManifest(blobs, await storeSiteManifest(blobs, manifest))
  assert.ok(read)
  assert.equal(Object.getPrototypeOf(read.manifest.files), null)
  assert.deepEqual(Object.keys(read.manifest.files), ['__proto__'])
  assert.equal(read.manifest.files.constructor, undefined)
})

test('the paths a URL of a page is routed through have one shard key', () => {
  for (const path of ['guide/index.html', 'guide.md', 'guide', 'guide.html', 'guide.html/index.html'])
    assert.equal(shardKey(path), 'guide', path)
  for (const path of ['index.html', 'index.md', '']) assert.equal(shardKey(path), '', path)
  assert.equal(shardKey('_assets/site.0123.css'), '_assets/site.0123.css')
  assert.equal(shardKey('reindex.html'), 'reindex')
})

test('a lookup finds exactly its path, whatever characters the path holds', async (t) => {
  const blobs = await store(t)
  const paths = [
    'a"b.html',
    'ü/ñ.html',
    'back\\slash',
    'line\u2028separator',
    '__proto__',
    'guide',
    'guide.html',
  ]
  const manifest = manifestOf(100)
  // Defined, not assigned, so `__proto__` is an entry of its own.
  for (const [index, path] of paths.entries())
    Object.defineProperty(manifest.files, path, {
      value: { sha256: String(index).padStart(64, 'a'), size: index, contentType: 'text/plain' },
      enumerable: true,
    })
  const head = parseManifestHead((await blobs.get(await storeSiteManifest(blobs, manifest)))!)
  const shards = await Promise.all(
    head.shards.map(async (shard) => parseManifestShard((await blobs.get(shard))!)),
  )
  const find = (path: string) => shards[shardOf(path, shards.length)]!.get(path)
  for (const path of [...paths, 'page-7/index.html', 'page-99.md'])
    assert.deepEqual(find(path), manifest.files[path], path)
  for (const path of ['a', 'guide.htm', 'guide.html/', 'page-7', 'constructor', 'a\\"b.html'])
    assert.equal(find(path), undefined, path)
})

test('the shard of a path is fixed by the stored format (FNV-1a of its key)', () => {
  // Values a reader of stored manifests depends on (checked with an FNV-1a written apart from this one).
  assert.deepEqual(
    ['', 'guide', 'guide/page-7/index.html', 'ü/ñ.md'].map((path) => shardOf(path, 1000)),
    [261, 963, 251, 927],
  )
})
