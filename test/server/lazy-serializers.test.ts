/**
 * Response serializers are compiled on a route's first answer (server/lazy-serializers.ts): none while
 * the app starts, the one a route needs when it answers, and every other route's schema compiles too,
 * so a bad schema fails here and not at a caller's request.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compilePendingSerializers } from '../../server/lazy-serializers.js'
import { testApp } from './helper.js'

test('serializers wait for their route, answer as compiled ones, and every schema compiles', async (t) => {
  compilePendingSerializers()
  const app = await testApp(t)
  await app.ready()
  const health = await app.inject({ method: 'GET', url: '/health' })
  assert.equal(health.statusCode, 200)
  assert.equal(health.json().ok, true)
  const compiled = compilePendingSerializers()
  // Every route with a response schema, less the one /health compiled: the API has dozens.
  assert.ok(compiled > 50, `${compiled} serializers compiled`)
  assert.equal(compilePendingSerializers(), 0, 'each compiled once')
  t.diagnostic(`${compiled} response serializers compiled after start-up`)
})
