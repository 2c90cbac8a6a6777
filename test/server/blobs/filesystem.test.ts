import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { type TestContext, test } from 'node:test'
import { FilesystemBlobStore } from '../../../server/blobs/filesystem.js'

const hash = (text: string) => createHash('sha256').update(text).digest('hex')

async function store(t: Pick<TestContext, 'after'>) {
  const root = await mkdtemp(join(tmpdir(), 'blobs-'))
  t.after(() => rm(root, { recursive: true, force: true }))
  return new FilesystemBlobStore(root)
}

test('put and get by sha256, idempotent', async (t) => {
  const blobs = await store(t)
  const sha = await blobs.put(Buffer.from('hello'))
  assert.equal(sha, hash('hello'))
  assert.equal(await blobs.put(Buffer.from('hello')), sha)
  assert.equal(await blobs.has(sha), true)
  assert.equal((await blobs.get(sha))?.toString(), 'hello')
  assert.equal(await blobs.has(hash('other')), false)
  assert.equal(await blobs.get('../../etc/passwd'), undefined)
})

test('streams are hashed, size-limited and verified; refused streams leave nothing', async (t) => {
  const blobs = await store(t)
  const ok = await blobs.putStream(Readable.from([Buffer.from('ab'), Buffer.from('c')]), {
    maxBytes: 10,
    expectedSha256: hash('abc'),
  })
  assert.deepEqual(ok, { ok: true, sha256: hash('abc'), size: 3 })
  const streamed = blobs.stream(hash('abc'))
  assert.ok(streamed)
  const chunks: Buffer[] = []
  for await (const chunk of streamed) chunks.push(chunk as Buffer)
  assert.equal(Buffer.concat(chunks).toString(), 'abc')

  const mismatch = await blobs.putStream(Readable.from([Buffer.from('xyz')]), {
    maxBytes: 10,
    expectedSha256: hash('abc'),
  })
  assert.deepEqual(mismatch, { ok: false, reason: 'hash-mismatch', sha256: hash('xyz'), size: 3 })
  assert.equal(await blobs.has(hash('xyz')), false)
  const large = await blobs.putStream(Readable.from([Buffer.alloc(20)]), { maxBytes: 10 })
  assert.equal(large.ok, false)
  assert.deepEqual(await readdir(join(blobs.root, 'tmp')), [], 'no temp files are left behind')
})

test('chunked uploads append in order and become a blob when the hash matches', async (t) => {
  const blobs = await store(t)
  assert.deepEqual(await blobs.appendChunk('up1', 0, Buffer.from('ab')), { ok: true, received: 2 })
  assert.deepEqual(await blobs.appendChunk('up1', 5, Buffer.from('zz')), { ok: false, expectedOffset: 2 })
  assert.deepEqual(await blobs.appendChunk('up1', 2, Buffer.from('c')), { ok: true, received: 3 })
  assert.equal(await blobs.completeChunks('up1', hash('abc')), true)
  assert.equal((await blobs.get(hash('abc')))?.toString(), 'abc')
  await blobs.appendChunk('up2', 0, Buffer.from('abd'))
  assert.equal(await blobs.completeChunks('up2', hash('abc')), false)
  await assert.rejects(blobs.appendChunk('../escape', 0, Buffer.from('x')))
})
