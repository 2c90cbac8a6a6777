import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { sqlEngines, testApp } from '../helper.js'

for (const engine of sqlEngines) {
  describe(`health and openapi (${engine})`, () => {
    test('GET /health answers while the process is up; GET /ready checks the database and blob store', async (t) => {
      const app = await testApp(t, engine)
      const response = await app.inject({ url: '/health' })
      assert.equal(response.statusCode, 200)
      const body = response.json()
      assert.equal(body.ok, true)
      assert.equal(new Date(body.timestamp).toISOString(), body.timestamp)
      const ready = await app.inject({ url: '/ready' })
      assert.equal(ready.statusCode, 200, ready.body)
      const { timestamp, ...readiness } = ready.json() as Record<string, unknown>
      assert.equal(typeof timestamp, 'string')
      assert.deepEqual(readiness, { ok: true, database: 'ok', blobStore: 'ok', changes: 'listening' })
    })
  })
}

test('with the database gone GET /health still answers and GET /ready answers 503', async (t) => {
  const app = await testApp(t)
  await app.ready()
  await app.db.destroy()
  const health = await app.inject({ url: '/health' })
  assert.equal(health.statusCode, 200)
  const response = await app.inject({ url: '/ready' })
  assert.equal(response.statusCode, 503)
  assert.equal(response.json().ok, false)
  assert.equal(response.json().database, 'unreachable')
  assert.equal(response.json().blobStore, 'ok')
})

test('GET /openapi.json describes every route with its schemas', async (t) => {
  const app = await testApp(t)
  const response = await app.inject({ url: '/openapi.json' })
  assert.equal(response.statusCode, 200)
  const document = response.json()
  assert.equal(document.openapi, '3.1.0')
  for (const [path, method] of [
    ['/health', 'get'],
    ['/projects/', 'get'],
    ['/projects/', 'post'],
    ['/projects/{projectId}', 'patch'],
    ['/projects/slug/{slug}', 'get'],
    ['/projects/slug/{slug}/deployments', 'post'],
    ['/projects/slug/{slug}/deployments', 'get'],
    ['/projects/slug/{slug}/deployments/{id}/files/batch', 'post'],
    ['/projects/slug/{slug}/deployments/{id}/files/chunks/{sha256}', 'put'],
    ['/projects/slug/{slug}/deployments/{id}/finalize', 'post'],
    ['/projects/slug/{slug}/deployments/{id}/promote', 'post'],
  ] as const) {
    assert.ok(document.paths[path]?.[method], `${method} ${path}`)
  }
  assert.deepEqual(document.paths['/projects/'].post.requestBody.content['application/json'].schema, {
    $ref: '#/components/schemas/ProjectCreate',
  })
  assert.ok(document.components.schemas.Deployment.properties.previewUrl)
})
