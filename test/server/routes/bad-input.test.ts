/** Bad input of every kind gets a 4xx with {error, issues}, and no partial deployment becomes visible. */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { test } from 'node:test'
import { appWithProject, bearer, multipartBody, sha256, type testApp } from '../helper.js'

const entry = (path: string, body = 'x') => ({ path, sha256: sha256(body), size: Buffer.byteLength(body) })

async function setup(t: Parameters<typeof testApp>[0], overrides: Parameters<typeof testApp>[2] = {}) {
  const { app, token } = await appWithProject(t, 'inputs', 'sqlite', overrides)
  const create = (payload: unknown) =>
    app.inject({
      method: 'POST',
      url: '/projects/slug/inputs/deployments',
      headers: bearer(token),
      payload: payload as object,
    })
  /** GET as the project's owner. */
  const read = (url: string) => app.inject({ url, headers: bearer(token) })
  return { app, token, create, read }
}

test('manifest paths that could escape or confuse the site are refused', async (t) => {
  const { create } = await setup(t)
  for (const [path, message] of [
    ['../etc/passwd', /inside the docs folder/],
    ['guide/../../x.mdx', /inside the docs folder/],
    ['/abs.mdx', /relative/],
    ['guide\\setup.mdx', /backslashes/],
    ['nul\0.mdx', /NUL/],
    ['page#frag.mdx', /"#" or "\?"/],
    ['page?.mdx', /"#" or "\?"/],
    ['a//b.mdx', /inside the docs folder/],
  ] as const) {
    const response = await create({ files: [entry(path)] })
    assert.equal(response.statusCode, 400, path)
    const body = response.json()
    assert.ok(body.error)
    assert.equal(body.issues[0].path, 'body/files/0/path')
    assert.match(body.issues[0].message, message, path)
  }
  const duplicate = await create({ files: [entry('a.mdx'), entry('b.mdx'), entry('a.mdx', 'y')] })
  assert.equal(duplicate.statusCode, 400)
  assert.deepEqual(duplicate.json().issues, [{ path: 'body/files/2/path', message: 'duplicate path a.mdx' }])
})

test('JSON of the wrong shape names each problem', async (t) => {
  const { create, app, token, read } = await setup(t)
  const response = await create({
    branch: 7,
    files: [{ path: 'a.mdx', sha256: 'nothex', size: -1 }],
    other: 1,
  })
  assert.equal(response.statusCode, 400)
  const paths = response
    .json()
    .issues.map((issue: { path: string }) => issue.path)
    .sort()
  assert.deepEqual(paths, ['body/branch', 'body/files/0/sha256', 'body/files/0/size', 'body/other'])
  const notJson = await app.inject({
    method: 'POST',
    url: '/projects/slug/inputs/deployments',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    payload: '{"files": [',
  })
  assert.equal(notJson.statusCode, 400)
  assert.ok(notJson.json().error)
  const badLimit = await read('/projects/slug/inputs/deployments?limit=0')
  assert.equal(badLimit.statusCode, 400)
  const badCursor = await read('/projects/slug/inputs/deployments?cursor=zzz')
  assert.equal(badCursor.statusCode, 400)
  assert.equal(badCursor.json().issues[0].path, 'querystring/cursor')
})

test('too many files, too large a file, too large a batch: 413', async (t) => {
  const { create, app, token } = await setup(t, {
    maxFilesPerDeployment: 20_000,
    maxFileBytes: 25 * 1024 * 1024,
  })
  const many = Array.from({ length: 20_001 }, (_, index) => entry(`p${index}.mdx`))
  const tooMany = await create({ files: many })
  assert.equal(tooMany.statusCode, 413)
  assert.equal(tooMany.json().issues[0].path, 'body/files')
  const huge = await create({ files: [{ path: 'big.bin', sha256: sha256('x'), size: 26 * 1024 * 1024 }] })
  assert.equal(huge.statusCode, 413)

  const big = randomBytes(5 * 1024 * 1024)
  const created = await create({ files: [{ path: 'big.bin', sha256: sha256(big), size: big.length }] })
  const id = created.json().deployment.id
  const body = multipartBody([{ name: 'big.bin', bytes: big }])
  const batch = await app.inject({
    method: 'POST',
    url: `/projects/slug/inputs/deployments/${id}/files/batch`,
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  })
  assert.equal(batch.statusCode, 413)
  assert.match(batch.json().error, /at most 4194304 bytes/)
  const chunk = await app.inject({
    method: 'PUT',
    url: `/projects/slug/inputs/deployments/${id}/files/chunks/${sha256(big)}?offset=0`,
    headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
    payload: big,
  })
  assert.equal(chunk.statusCode, 413)
  assert.ok(chunk.json().error)
  // The server still answers.
  assert.equal((await app.inject({ url: '/health' })).statusCode, 200)
})

test('large files upload in ordered chunks, checked against the manifest hash', async (t) => {
  const { create, app, token } = await setup(t)
  const big = randomBytes(5 * 1024 * 1024 + 10)
  const hash = sha256(big)
  const created = await create({ files: [{ path: 'video.bin', sha256: hash, size: big.length }] })
  assert.deepEqual(created.json().missing, [hash])
  const id = created.json().deployment.id
  const put = (offset: number, bytes: Buffer, sha = hash) =>
    app.inject({
      method: 'PUT',
      url: `/projects/slug/inputs/deployments/${id}/files/chunks/${sha}?offset=${offset}`,
      headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
      payload: bytes,
    })
  const chunkSize = 3 * 1024 * 1024
  const first = await put(0, big.subarray(0, chunkSize))
  assert.equal(first.statusCode, 200)
  assert.deepEqual(first.json(), { sha256: hash, received: chunkSize, complete: false })
  const skipped = await put(chunkSize + 5, big.subarray(chunkSize + 5))
  assert.equal(skipped.statusCode, 409)
  assert.deepEqual(skipped.json().issues, [{ path: 'querystring/offset', message: `expected ${chunkSize}` }])
  const pastEnd = await put(chunkSize, Buffer.concat([big.subarray(chunkSize), Buffer.from('extra')]))
  assert.equal(pastEnd.statusCode, 400)
  const last = await put(chunkSize, big.subarray(chunkSize))
  assert.deepEqual(last.json(), { sha256: hash, received: big.length, complete: true })
  assert.equal(await app.blobs.has(hash), true)
  const unknown = await put(0, Buffer.from('x'), sha256('not in manifest'))
  assert.equal(unknown.statusCode, 404)

  // A chunked upload whose bytes do not hash as declared is refused and dropped.
  const other = randomBytes(1000)
  const declared = await create({
    files: [{ path: 'x.bin', sha256: sha256('something else'), size: other.length }],
  })
  const mismatch = await app.inject({
    method: 'PUT',
    url: `/projects/slug/inputs/deployments/${declared.json().deployment.id}/files/chunks/${sha256('something else')}?offset=0`,
    headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
    payload: other,
  })
  assert.equal(mismatch.statusCode, 400)
  assert.match(mismatch.json().error, /do not hash/)
})

test('unknown ids and finished deployments', async (t) => {
  const { create, app, token, read } = await setup(t)
  const unknownProject = await read('/projects/slug/nope-nope/deployments')
  assert.equal(unknownProject.statusCode, 404)
  const unknownDeployment = await read('/projects/slug/inputs/deployments/dpl_zzzz')
  assert.equal(unknownDeployment.statusCode, 404)
  assert.match(unknownDeployment.json().error, /dpl_zzzz/)
  const empty = await create({})
  assert.equal(empty.statusCode, 201)
  const id = empty.json().deployment.id
  const finalize = await app.inject({
    method: 'POST',
    url: `/projects/slug/inputs/deployments/${id}/finalize`,
    headers: bearer(token),
    payload: { waitSeconds: 61 },
  })
  assert.equal(finalize.statusCode, 400)
  assert.equal(finalize.json().issues[0].path, 'body/waitSeconds')
  const notReady = await app.inject({
    method: 'POST',
    url: `/projects/slug/inputs/deployments/${id}/promote`,
    headers: bearer(token),
  })
  assert.equal(notReady.statusCode, 409)
  const project = await app.repos.projects.findBySlug('inputs')
  assert.equal(project?.live_deployment_id, null)
})
