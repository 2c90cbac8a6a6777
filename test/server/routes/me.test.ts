import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bearer, createProject, signIn, testApp } from '../helper.js'

test('GET /me answers the user behind a token, and nothing for a deploy key', async (t) => {
  const app = await testApp(t)
  const token = await signIn(app, 'Lin@Example.com')
  const me = await app.inject({ url: '/me', headers: bearer(token) })
  assert.equal(me.statusCode, 200)
  const body = me.json()
  assert.deepEqual(Object.keys(body).sort(), ['email', 'id', 'name'])
  assert.equal(body.email, 'lin@example.com')
  assert.equal(body.name, null)
  assert.match(body.id, /^usr_/)

  const project = await createProject(app, token, 'lins-docs')
  const { token: key } = await app.repos.deployKeys.create(project.id, 'ci')
  const asKey = await app.inject({ url: '/me', headers: bearer(key) })
  assert.equal(asKey.statusCode, 403)
  assert.match(asKey.json().error, /Deploy keys/)

  const anonymous = await app.inject({ url: '/me' })
  assert.equal(anonymous.statusCode, 401)
  assert.equal(anonymous.headers['www-authenticate'], 'Bearer')
})
