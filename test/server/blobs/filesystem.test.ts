import assert from 'node:assert/strict'
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { type TestContext, test } from 'node:test'
import { FilesystemBlobStore } from '../../../server/blobs/filesystem.js'
import { blobStoreContract } from './contract.js'

async function store(t: Pick<TestContext, 'after'>) {
  const root = await mkdtemp(join(tmpdir(), 'blobs-'))
  t.after(() => rm(root, { recursive: true, force: true }))
  return new FilesystemBlobStore(root)
}

blobStoreContract('filesystem', async (t) => {
  const blobs = await store(t)
  return { blobs, backdate: (sha256, when) => utimes(blobs.pathOf(sha256), when, when) }
})

test('filesystem: refused streams leave no temp file behind', async (t) => {
  const blobs = await store(t)
  await blobs.putStream(Readable.from([Buffer.alloc(20)]), { maxBytes: 10 })
  await blobs.putStream(Readable.from([Buffer.from('x')]), { maxBytes: 10, expectedSha256: '0'.repeat(64) })
  assert.deepEqual(await readdir(join(blobs.root, 'tmp')), [])
})
