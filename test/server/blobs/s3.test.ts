import assert from 'node:assert/strict'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { after, type TestContext, test } from 'node:test'
import { DeleteObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3'
import { S3BlobStore } from '../../../server/blobs/s3.js'
import { blobStoreContract, hash, readAll } from './contract.js'
import { startS3Server } from './s3-server.js'

// One S3 server for the file; each test gets a bucket of its own.
const s3 = await startS3Server({ after })

async function store(t: Pick<TestContext, 'after'>, cacheBytes = 64 * 1024 * 1024, prefix = 'docs/blobs') {
  const bucket = await s3.createBucket()
  const local = await mkdtemp(join(tmpdir(), 's3-blobs-'))
  const blobs = new S3BlobStore(s3.blobStore(prefix, bucket), local, cacheBytes)
  t.after(async () => {
    blobs.close()
    await rm(local, { recursive: true, force: true })
  })
  return { blobs, bucket, local }
}

blobStoreContract('s3', async (t) => {
  const { blobs, bucket } = await store(t)
  return {
    blobs,
    backdate: async (sha256, when) => {
      await s3.backdate(bucket, blobs.keyOf(sha256), when)
      // As a new process would see it: this one remembers having just written it.
      blobs.forget(sha256)
    },
  }
})

test('s3: blobs live under the prefix, by sha256; a large stream goes up in parts and is verified', async (t) => {
  const { blobs, bucket, local } = await store(t)
  const large = Buffer.alloc(12 * 1024 * 1024)
  for (let offset = 0; offset < large.length; offset += 4096) large.writeUInt32BE(offset, offset)
  const pieces = Array.from({ length: 12 }, (_, index) =>
    large.subarray(index * 1024 * 1024, (index + 1) * 1024 * 1024),
  )
  const commands: string[] = []
  blobs.client.middlewareStack.add(
    (next, context) => (args) => {
      commands.push(String(context.commandName))
      return next(args)
    },
    { step: 'initialize' },
  )
  const started = performance.now()
  const stored = await blobs.putStream(Readable.from(pieces), {
    maxBytes: 25 * 1024 * 1024,
    expectedSha256: hash(large),
  })
  t.diagnostic(`12 MB streamed to s3rver in ${Math.round(performance.now() - started)} ms`)
  assert.deepEqual(stored, { ok: true, sha256: hash(large), size: large.length })
  const head = await s3.client().send(
    new HeadObjectCommand({
      Bucket: bucket,
      Key: `docs/blobs/objects/${hash(large).slice(0, 2)}/${hash(large).slice(2)}`,
    }),
  )
  assert.equal(head.ContentLength, large.length)
  assert.equal(
    commands.filter((name) => name === 'UploadPartCommand').length,
    2,
    'uploaded in 2 parts of 8 MB',
  )
  assert.ok(commands.includes('CompleteMultipartUploadCommand'))
  assert.ok(!commands.includes('PutObjectCommand'), 'never as one request')
  const usage = await s3.usage('docs/blobs', bucket)
  assert.deepEqual(usage, { objects: 1, bytes: large.length })
  assert.deepEqual(await readdir(join(local, 'tmp')), [], 'the spool file is gone')
  const stream = await blobs.stream(hash(large))
  assert.ok(stream)
  assert.equal(hash(await readAll(stream)), hash(large))
})

test('s3: hot reads come from the local cache, bounded by bytes', async (t) => {
  const { blobs, bucket } = await store(t, 64 * 1024)
  const small = await blobs.put(Buffer.from('a hot page'))
  assert.equal((await blobs.get(small))?.toString(), 'a hot page')
  // Gone from the bucket behind the store's back: served from the cache all the same.
  await s3.client().send(new DeleteObjectCommand({ Bucket: bucket, Key: blobs.keyOf(small) }))
  assert.equal((await blobs.get(small))?.toString(), 'a hot page')
  const otherLocal = await mkdtemp(join(tmpdir(), 's3-blobs-'))
  const elsewhere = new S3BlobStore(s3.blobStore('docs/blobs', bucket), otherLocal, 0)
  t.after(async () => {
    elsewhere.close()
    await rm(otherLocal, { recursive: true, force: true })
  })
  assert.equal(await elsewhere.has(small), false, 'has() never answers from the read cache')
  // A blob over an eighth of the cache is never cached; many small ones never pass the bound.
  const big = await blobs.put(Buffer.alloc(9 * 1024, 1))
  await blobs.get(big)
  for (let index = 0; index < 40; index++) await blobs.get(await blobs.put(Buffer.alloc(4 * 1024, index + 2)))
  assert.ok(blobs.cache.bytes <= 64 * 1024, `cache holds ${blobs.cache.bytes} bytes`)
  await s3.client().send(new DeleteObjectCommand({ Bucket: bucket, Key: blobs.keyOf(big) }))
  assert.equal(await blobs.get(big), undefined, 'the big blob was read from the bucket, not kept')
  // Deleting through the store forgets the cached copy too.
  const kept = await blobs.put(Buffer.from('deleted by gc'))
  await blobs.get(kept)
  await blobs.delete([kept])
  assert.equal(await blobs.get(kept), undefined)
})

test('s3: an unreachable bucket fails the check and reads with an error, not a false absence', async (t) => {
  const local = await mkdtemp(join(tmpdir(), 's3-blobs-'))
  t.after(() => rm(local, { recursive: true, force: true }))
  const blobs = new S3BlobStore(s3.blobStore('x', 'no-such-bucket'), local, 0)
  t.after(() => blobs.close())
  await assert.rejects(blobs.check())
  await assert.rejects(blobs.get(hash('x')), { name: 'NoSuchBucket' })
  await assert.rejects(blobs.put(Buffer.from('x')))
})
