/**
 * The BlobStore contract: what routes and builds rely on, run against every store
 * (filesystem.test.ts, s3.test.ts). A store that passes here can replace another.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { type TestContext, test } from 'node:test'
import type { BlobStore } from '../../../server/blobs/store.js'

export const hash = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex')

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

async function listed(blobs: BlobStore): Promise<Map<string, number>> {
  const found = new Map<string, number>()
  for await (const blob of blobs.list()) found.set(blob.sha256, blob.size)
  return found
}

export interface ContractStore {
  blobs: BlobStore
  /** Makes a stored blob look written at `when` (behind the store's back). */
  backdate(sha256: string, when: Date): Promise<void>
}

/** Registers the contract's tests for stores made by `openStore` (a fresh, empty store per test). */
export function blobStoreContract(name: string, openStore: (t: TestContext) => Promise<ContractStore>): void {
  const open = async (t: TestContext) => (await openStore(t)).blobs
  test(`${name}: put and get by sha256, idempotent; bad names are absent`, async (t) => {
    const blobs = await open(t)
    const sha = await blobs.put(Buffer.from('hello'))
    assert.equal(sha, hash('hello'))
    assert.equal(await blobs.put(Buffer.from('hello')), sha)
    assert.equal(await blobs.has(sha), true)
    assert.equal((await blobs.get(sha))?.toString(), 'hello')
    assert.equal(await blobs.has(hash('other')), false)
    assert.equal(await blobs.get(hash('other')), undefined)
    assert.equal(await blobs.stream(hash('other')), undefined)
    assert.equal(await blobs.get('../../etc/passwd'), undefined)
    assert.equal(await blobs.has('../../etc/passwd'), false)
    assert.equal(await blobs.stream('../x'), undefined)
    const empty = await blobs.put(new Uint8Array())
    assert.equal((await blobs.get(empty))?.length, 0)
  })

  test(`${name}: streams are hashed, size-limited and verified; refused streams leave nothing`, async (t) => {
    const blobs = await open(t)
    const ok = await blobs.putStream(Readable.from([Buffer.from('ab'), Buffer.from('c')]), {
      maxBytes: 10,
      expectedSha256: hash('abc'),
    })
    assert.deepEqual(ok, { ok: true, sha256: hash('abc'), size: 3 })
    const streamed = await blobs.stream(hash('abc'))
    assert.ok(streamed)
    assert.equal((await readAll(streamed)).toString(), 'abc')
    const again = await blobs.putStream(Readable.from([Buffer.from('abc')]), { maxBytes: 10 })
    assert.deepEqual(again, ok, 'storing the same bytes again is a no-op that succeeds')

    const mismatch = await blobs.putStream(Readable.from([Buffer.from('xyz')]), {
      maxBytes: 10,
      expectedSha256: hash('abc'),
    })
    assert.deepEqual(mismatch, { ok: false, reason: 'hash-mismatch', sha256: hash('xyz'), size: 3 })
    assert.equal(await blobs.has(hash('xyz')), false)
    const large = await blobs.putStream(Readable.from([Buffer.alloc(20)]), { maxBytes: 10 })
    assert.deepEqual(large, { ok: false, reason: 'too-large', size: 20 })
    assert.equal(await blobs.has(hash(Buffer.alloc(20))), false)
    assert.deepEqual([...(await listed(blobs)).keys()], [hash('abc')], 'only the accepted blob is stored')
  })

  test(`${name}: chunked uploads append in order and become a blob when the hash matches`, async (t) => {
    const blobs = await open(t)
    assert.deepEqual(await blobs.appendChunk('up1', 0, Buffer.from('ab')), { ok: true, received: 2 })
    assert.deepEqual(await blobs.appendChunk('up1', 5, Buffer.from('zz')), { ok: false, expectedOffset: 2 })
    assert.deepEqual(await blobs.appendChunk('up1', 2, Buffer.from('c')), { ok: true, received: 3 })
    assert.equal(await blobs.completeChunks('up1', hash('abc')), true)
    assert.equal((await blobs.get(hash('abc')))?.toString(), 'abc')
    await blobs.appendChunk('up2', 0, Buffer.from('abd'))
    assert.equal(await blobs.completeChunks('up2', hash('abd-not')), false)
    assert.equal(await blobs.has(hash('abd')), false, 'a chunked upload that does not hash right is dropped')
    assert.deepEqual(
      await blobs.appendChunk('up2', 0, Buffer.from('a')),
      { ok: true, received: 1 },
      'completing drops the chunks either way',
    )
    await assert.rejects(blobs.appendChunk('../escape', 0, Buffer.from('x')))
  })

  test(`${name}: a multi-megabyte chunked file arrives whole`, async (t) => {
    const blobs = await open(t)
    const chunk = Buffer.alloc(2 * 1024 * 1024)
    let received = 0
    for (let index = 0; index < 3; index++) {
      chunk.fill(index + 1)
      const appended = await blobs.appendChunk('big', received, chunk)
      assert.equal(appended.ok, true)
      received += chunk.length
    }
    const whole = Buffer.concat([1, 2, 3].map((byte) => Buffer.alloc(chunk.length, byte)))
    assert.equal(await blobs.completeChunks('big', hash(whole)), true)
    const stream = await blobs.stream(hash(whole))
    assert.ok(stream)
    assert.equal(hash(await readAll(stream)), hash(whole))
  })

  test(`${name}: sweeping uploads deletes expired and named chunked uploads only`, async (t) => {
    const blobs = await open(t)
    await blobs.appendChunk('dep1-a', 0, Buffer.from('x'))
    await blobs.appendChunk('dep2-a', 0, Buffer.from('y'))
    assert.equal(await blobs.sweepUploads({ modifiedBefore: 0, uploadKeyPrefixes: ['dep1-'] }), 1)
    assert.deepEqual(await blobs.appendChunk('dep1-a', 1, Buffer.from('x')), { ok: false, expectedOffset: 0 })
    assert.deepEqual(await blobs.appendChunk('dep2-a', 1, Buffer.from('y')), { ok: true, received: 2 })
    assert.ok((await blobs.sweepUploads({ modifiedBefore: Date.now() + 60_000, uploadKeyPrefixes: [] })) >= 1)
    assert.deepEqual(await blobs.appendChunk('dep2-a', 0, Buffer.from('y')), { ok: true, received: 1 })
  })

  test(`${name}: reusing an old blob (touch, put, putStream, chunks) marks it as written now`, async (t) => {
    const { blobs, backdate } = await openStore(t)
    assert.equal(await blobs.touch(hash('absent')), false)
    assert.equal(await blobs.touch('../x'), false)
    const modifiedAt = async (sha256: string) => {
      for await (const blob of blobs.list()) if (blob.sha256 === sha256) return blob.modifiedAt
      return undefined
    }
    const longAgo = new Date(Date.now() - 24 * 3600_000)
    const reuses: [string, (sha256: string) => Promise<unknown>][] = [
      ['touch', (sha256) => blobs.touch(sha256)],
      ['put', () => blobs.put(Buffer.from('reused'))],
      ['putStream', () => blobs.putStream(Readable.from([Buffer.from('reused')]), { maxBytes: 100 })],
      [
        'completeChunks',
        async (sha256) => {
          await blobs.appendChunk('again', 0, Buffer.from('reused'))
          return blobs.completeChunks('again', sha256)
        },
      ],
    ]
    const sha = await blobs.put(Buffer.from('reused'))
    for (const [how, reuse] of reuses) {
      await backdate(sha, longAgo)
      assert.ok(((await modifiedAt(sha)) ?? 0) < Date.now() - 3600_000, `backdated before ${how}`)
      await reuse(sha)
      assert.ok(((await modifiedAt(sha)) ?? 0) > Date.now() - 60_000, `${how} refreshed it`)
    }
  })

  test(`${name}: list gives every blob with its size; delete removes only the named ones`, async (t) => {
    const blobs = await open(t)
    const before = Date.now() - 5_000
    const names = await Promise.all(['one', 'two', 'three'].map((text) => blobs.put(Buffer.from(text))))
    const found = new Map<string, number>()
    for await (const blob of blobs.list()) {
      found.set(blob.sha256, blob.size)
      assert.ok(
        blob.modifiedAt >= before && blob.modifiedAt <= Date.now() + 5_000,
        'modifiedAt is when it was written',
      )
    }
    assert.deepEqual(
      found,
      new Map([
        [names[0], 3],
        [names[1], 3],
        [names[2], 5],
      ]),
    )
    await blobs.delete([names[1]!, hash('never stored')])
    assert.equal(await blobs.has(names[1]!), false)
    assert.equal(await blobs.get(names[1]!), undefined)
    assert.equal(await blobs.has(names[0]!), true)
    assert.deepEqual([...(await listed(blobs)).keys()].sort(), [names[0], names[2]].sort())
    await blobs.check()
  })
}
