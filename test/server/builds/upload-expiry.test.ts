import assert from 'node:assert/strict'
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test } from 'node:test'
import { UploadExpiry } from '../../../server/builds/upload-expiry.js'
import { bearer, createProject, engines, manifestOf, sha256, signIn, testApp } from '../helper.js'

const hour = 3600_000

for (const engine of engines) {
  test(`abandoned uploads and their chunk and temp files are expired by the sweep (${engine})`, async (t) => {
    const app = await testApp(t, engine)
    const token = await signIn(app)
    await createProject(app, token, 'abandoned')
    const start = async (bytes: Buffer) => {
      const created = await app.inject({
        method: 'POST',
        url: '/projects/slug/abandoned/deployments',
        headers: bearer(token),
        payload: { branch: 'main', files: manifestOf(new Map([['big.bin', bytes]])) },
      })
      const { id } = created.json().deployment as { id: string }
      // Half of the file arrives, then the push stops.
      const chunk = await app.inject({
        method: 'PUT',
        url: `/projects/slug/abandoned/deployments/${id}/files/chunks/${sha256(bytes)}?offset=0`,
        headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
        payload: bytes.subarray(0, bytes.length / 2),
      })
      assert.equal(chunk.statusCode, 200, chunk.body)
      return id
    }
    const old = await start(Buffer.alloc(4096, 'o'))
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
  const bytes = Buffer.alloc(4096, 'y')
  const created = await app.inject({
    method: 'POST',
    url: '/projects/slug/young/deployments',
    headers: bearer(token),
    payload: { branch: 'main', files: manifestOf(new Map([['big.bin', bytes]])) },
  })
  const { id } = created.json().deployment as { id: string }
  await app.inject({
    method: 'PUT',
    url: `/projects/slug/young/deployments/${id}/files/chunks/${sha256(bytes)}?offset=0`,
    headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
    payload: bytes.subarray(0, 1024),
  })
  const swept = await new UploadExpiry(app.repos, app.blobs, 24 * hour, app.log).sweep()
  assert.deepEqual(swept, { deployments: [], files: 0 })
  assert.equal((await app.repos.deployments.findById(id))?.status, 'uploading')
  assert.equal((await readdir(join(app.config.dataDir, 'blobs', 'chunks'))).length, 1)
})
