import assert from 'node:assert/strict'
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { UploadExpiry } from '../../../server/deployments/upload-expiry.js'
import { bearer, createProject, engines, manifestOf, sha256, signIn, testApp } from '../helper.js'

const hour = 3600_000

/** Create a deployment of one file and upload the first `sent` bytes of it in a chunk, then stop. */
async function startUpload(app: FastifyInstance, token: string, slug: string, bytes: Buffer, sent: number) {
  const created = await app.inject({
    method: 'POST',
    url: `/projects/slug/${slug}/deployments`,
    headers: bearer(token),
    payload: { branch: 'main', files: manifestOf(new Map([['big.bin', bytes]])) },
  })
  const { id } = created.json().deployment as { id: string }
  const chunk = await app.inject({
    method: 'PUT',
    url: `/projects/slug/${slug}/deployments/${id}/files/chunks/${sha256(bytes)}?offset=0`,
    headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
    payload: bytes.subarray(0, sent),
  })
  assert.equal(chunk.statusCode, 200, chunk.body)
  return id
}

for (const engine of engines) {
  test(`abandoned uploads and their chunk and temp files are expired by the sweep (${engine})`, async (t) => {
    const app = await testApp(t, engine)
    const token = await signIn(app)
    await createProject(app, token, 'abandoned')
    const old = await startUpload(app, token, 'abandoned', Buffer.alloc(4096, 'o'), 2048)
    const chunks = join(app.config.dataDir, 'blobs', 'chunks')
    const temp = join(app.config.dataDir, 'blobs', 'tmp')
    await mkdir(temp, { recursive: true })
    await writeFile(join(temp, 'stale-part'), 'x')
    const past = new Date(Date.now() - 25 * hour)
    await utimes(join(temp, 'stale-part'), past, past)

    const expiry = new UploadExpiry(app.repos, app.blobs, 24 * hour, app.log)
    // A day and a minute later, the sweep runs.
    const swept = await expiry.sweep(Date.now() + 24 * hour + 60_000)
    assert.deepEqual(swept.deployments, [old])
    assert.ok(swept.files >= 2, `${swept.files} files deleted`)
    const record = (
      await app.inject({ url: `/projects/slug/abandoned/deployments/${old}`, headers: bearer(token) })
    ).json()
    assert.equal(record.status, 'failed')
    assert.equal(record.diagnostics[0].rule, 'upload-expired')
    assert.match(record.diagnostics[0].message, /not finalized within 24 h/)
    assert.deepEqual(
      (await readdir(chunks)).filter((name) => name.startsWith(old)),
      [],
    )
    assert.deepEqual(await readdir(temp), [])
    // An expired deployment takes no more files.
    const refused = await app.inject({
      method: 'PUT',
      url: `/projects/slug/abandoned/deployments/${old}/files/chunks/${sha256(Buffer.alloc(4096, 'o'))}?offset=2048`,
      headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(2048, 'o'),
    })
    assert.equal(refused.statusCode, 409)
  })
}

test('an upload younger than the limit is kept, with its chunks', async (t) => {
  const app = await testApp(t, 'sqlite')
  const token = await signIn(app)
  await createProject(app, token, 'young')
  const id = await startUpload(app, token, 'young', Buffer.alloc(4096, 'y'), 1024)
  const swept = await new UploadExpiry(app.repos, app.blobs, 24 * hour, app.log).sweep()
  assert.deepEqual(swept, { deployments: [], files: 0 })
  assert.equal((await app.repos.deployments.findById(id))?.status, 'uploading')
  assert.equal((await readdir(join(app.config.dataDir, 'blobs', 'chunks'))).length, 1)
})
