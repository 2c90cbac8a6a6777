/**
 * Faults of the storage behind an upload are the server's, said as such: 503 naming what failed for a
 * blob store that errs (a bucket answering 500, a folder that cannot be written), 507 for a full disk,
 * wherever it strikes (the database file too). Before, they answered `400 Malformed multipart body:
 * UnknownError` (or the server's paths), and a full database 500.
 */
import assert from 'node:assert/strict'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { startS3Server } from '../blobs/s3-server.js'
import { bearer, createProject, manifestOf, multipartBody, sha256, signIn, testApp } from '../helper.js'
import { startRelay } from '../relay.js'

const files = new Map([['index.mdx', Buffer.from('---\ntitle: Hi\n---\n\nHello.\n')]])

async function createDeployment(app: FastifyInstance, token: string, slug: string): Promise<string> {
  await createProject(app, token, slug)
  const created = await app.inject({
    method: 'POST',
    url: `/projects/slug/${slug}/deployments`,
    headers: bearer(token),
    payload: { files: manifestOf(files) },
  })
  assert.equal(created.statusCode, 201, created.body)
  return created.json().deployment.id as string
}

function upload(app: FastifyInstance, token: string, slug: string, id: string) {
  const body = multipartBody([...files].map(([name, bytes]) => ({ name, bytes })))
  return app.inject({
    method: 'POST',
    url: `/projects/slug/${slug}/deployments/${id}/files/batch`,
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  })
}

test('a bucket answering 500 makes an upload answer 503 saying so, not a malformed body', async (t) => {
  // An S3 endpoint that fails every request, as a bucket in trouble does.
  const failing = createServer((_request, response) => response.writeHead(500).end())
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => failing.close(() => resolve())))
  const app = await testApp(t, 'sqlite', {
    blobStore: {
      kind: 's3',
      bucket: 'docs',
      prefix: '',
      endpoint: `http://127.0.0.1:${(failing.address() as AddressInfo).port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    },
  })
  const token = await signIn(app)
  const id = await createDeployment(app, token, 'bucket')
  const response = await upload(app, token, 'bucket', id)
  assert.equal(response.statusCode, 503, response.body)
  assert.match(
    response.json().error,
    /^The blob store could not store the upload: S3 answered HTTP 500 \(\w+\); nothing of this request was kept, try again later$/,
  )
  assert.equal(response.headers.connection, 'close')
})

test('an S3 bucket that is unreachable mid-push answers 503 naming the blob store; the push then succeeds', async (t) => {
  const s3 = await startS3Server(t)
  const relay = await startRelay(t, Number(new URL(s3.endpoint).port))
  const app = await testApp(t, 'sqlite', {
    blobStore: { ...s3.blobStore('push'), endpoint: `http://127.0.0.1:${relay.port}` },
  })
  const token = await signIn(app)
  const id = await createDeployment(app, token, 'outage')
  await relay.cut()
  const batch = await upload(app, token, 'outage', id)
  assert.equal(batch.statusCode, 503, batch.body)
  assert.equal(
    batch.json().error,
    'The blob store could not store the upload: ECONNREFUSED on connect; nothing of this request was kept, try again later',
  )
  assert.equal(batch.headers['retry-after'], '5')
  const [[, bytes]] = [...files] as [[string, Buffer]]
  const chunk = await app.inject({
    method: 'PUT',
    url: `/projects/slug/outage/deployments/${id}/files/chunks/${sha256(bytes)}?offset=0`,
    headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
    payload: bytes,
  })
  assert.equal(chunk.statusCode, 503, chunk.body)
  assert.match(chunk.json().error, /^The blob store could not store the chunk: ECONNREFUSED on connect;/)

  await relay.restore()
  const again = await upload(app, token, 'outage', id)
  assert.equal(again.statusCode, 200, again.body)
  assert.deepEqual(again.json().missing, [])
})

test('a blob folder that cannot be written answers 503 with the error code, never a path', async (t) => {
  const app = await testApp(t, 'sqlite')
  const token = await signIn(app)
  const id = await createDeployment(app, token, 'folder')
  // The store's temp folder is a file: every write fails, with a code that is not a full disk.
  const temp = join(app.config.dataDir, 'blobs', 'tmp')
  await mkdir(join(app.config.dataDir, 'blobs'), { recursive: true })
  await rm(temp, { recursive: true, force: true })
  await writeFile(temp, 'not a folder')
  const response = await upload(app, token, 'folder', id)
  assert.equal(response.statusCode, 503, response.body)
  assert.match(response.json().error, /^The blob store could not store the upload: E[A-Z]+ on mkdir;/)
  assert.doesNotMatch(response.body, new RegExp(app.config.dataDir))

  // A chunk of a large file, the same.
  const chunks = join(app.config.dataDir, 'blobs', 'chunks')
  await rm(chunks, { recursive: true, force: true })
  await writeFile(chunks, 'not a folder')
  const [[, bytes]] = [...files] as [[string, Buffer]]
  const chunk = await app.inject({
    method: 'PUT',
    url: `/projects/slug/folder/deployments/${id}/files/chunks/${sha256(bytes)}?offset=0`,
    headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
    payload: bytes,
  })
  assert.equal(chunk.statusCode, 503, chunk.body)
  assert.match(chunk.json().error, /^The blob store could not store the chunk: E[A-Z]+ on mkdir;/)

  // A body cut short is still the request's fault.
  await rm(temp, { force: true })
  const body = multipartBody([...files].map(([name, bytes]) => ({ name, bytes })))
  const cut = await app.inject({
    method: 'POST',
    url: `/projects/slug/folder/deployments/${id}/files/batch`,
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload.subarray(0, body.payload.length - 40),
  })
  assert.equal(cut.statusCode, 400, cut.body)
  assert.match(cut.json().error, /^Malformed multipart body/)
})

test('a full database answers 507 to a new deployment, not 500', async (t) => {
  const app = await testApp(t, 'sqlite')
  const token = await signIn(app)
  await createProject(app, token, 'full')
  // SQLite refuses to grow the database past this many pages, as it does on a full disk: SQLITE_FULL.
  const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(app.db)
  await sql.raw(`pragma max_page_count = ${rows[0]?.page_count}`).execute(app.db)
  const many = new Map(
    Array.from({ length: 2000 }, (_, index): [string, Buffer] => [
      `page-${index}.mdx`,
      Buffer.from(`# ${index}`),
    ]),
  )
  const created = await app.inject({
    method: 'POST',
    url: '/projects/slug/full/deployments',
    headers: bearer(token),
    payload: { files: manifestOf(many) },
  })
  assert.equal(created.statusCode, 507, created.body)
  assert.match(created.json().error, /out of storage space/)
  assert.equal(created.headers.connection, 'close')
})
