import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { engines, testApp } from '../helper.js'

for (const engine of engines) {
  describe(`health and openapi (${engine})`, () => {
    test('GET /health checks the database', async (t) => {
      const app = await testApp(t, engine)
      const response = await app.inject({ url: '/health' })
      assert.equal(response.statusCode, 200)
      const body = response.json()
      assert.equal(body.ok, true)
      assert.equal(new Date(body.timestamp).toISOString(), body.timestamp)
    })
  })
}

test('GET /health answers 503 when the database is gone', async (t) => {
  const app = await testApp(t)
  await app.db.destroy()
  const response = await app.inject({ url: '/health' })
  assert.equal(response.statusCode, 503)
  assert.equal(response.json().ok, false)
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
