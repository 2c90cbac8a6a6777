import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bearer, createProject, engines, signIn, testApp } from '../helper.js'

for (const engine of engines) {
  test(`deploy keys: created with a name, shown once, listed without their value, revoked at once (${engine})`, async (t) => {
    const app = await testApp(t, engine)
    const owner = await signIn(app)
    const project = await createProject(app, owner, 'keyed-docs')

    const created = await app.inject({
      method: 'POST',
      url: `/projects/${project.id}/deploy-keys`,
      headers: bearer(owner),
      payload: { name: '  GitHub Actions ' },
    })
    assert.equal(created.statusCode, 201)
    assert.equal(created.headers['cache-control'], 'no-store')
    const { deployKey, token } = created.json()
    assert.match(token, /^dk_[A-Za-z0-9_-]{43}$/)
    assert.deepEqual(Object.keys(deployKey).sort(), ['createdAt', 'id', 'lastUsedAt', 'name', 'prefix'])
    assert.equal(deployKey.name, 'GitHub Actions')
    assert.ok(token.startsWith(deployKey.prefix))
    assert.ok(
      deployKey.prefix.length < token.length / 2,
      'the prefix identifies the key but cannot stand for it',
    )
    assert.equal(deployKey.lastUsedAt, null)

    // The key works for deploying, and its use is recorded.
    const list = await app.inject({ url: '/projects/slug/keyed-docs/deployments', headers: bearer(token) })
    assert.equal(list.statusCode, 200)
    const listed = await app.inject({ url: `/projects/${project.id}/deploy-keys`, headers: bearer(owner) })
    assert.equal(listed.statusCode, 200)
    const [shown] = listed.json().deployKeys
    assert.equal(listed.json().deployKeys.length, 1)
    assert.equal(shown.id, deployKey.id)
    assert.equal(shown.prefix, deployKey.prefix)
    assert.match(shown.lastUsedAt, /^\d{4}-\d{2}-\d{2}T/)
    assert.equal(listed.body.includes(token), false)

    const revoked = await app.inject({
      method: 'DELETE',
      url: `/projects/${project.id}/deploy-keys/${deployKey.id}`,
      headers: bearer(owner),
    })
    assert.equal(revoked.statusCode, 204)
    const after = await app.inject({ url: '/projects/slug/keyed-docs/deployments', headers: bearer(token) })
    assert.equal(after.statusCode, 401)
    assert.match(after.json().error, /revoked/)
    const empty = await app.inject({ url: `/projects/${project.id}/deploy-keys`, headers: bearer(owner) })
    assert.deepEqual(empty.json(), { deployKeys: [] })
    const again = await app.inject({
      method: 'DELETE',
      url: `/projects/${project.id}/deploy-keys/${deployKey.id}`,
      headers: bearer(owner),
    })
    assert.equal(again.statusCode, 404)
  })
}

test('deploy keys need a name, and a key cannot manage keys', async (t) => {
  const app = await testApp(t)
  const owner = await signIn(app)
  const project = await createProject(app, owner, 'named-keys')
  for (const payload of [
    {},
    { name: '' },
    { name: '   ' },
    { name: 'x'.repeat(101) },
    { name: 'ci', extra: true },
  ]) {
    const response = await app.inject({
      method: 'POST',
      url: `/projects/${project.id}/deploy-keys`,
      headers: bearer(owner),
      payload,
    })
    assert.equal(response.statusCode, 400, JSON.stringify(payload))
    assert.ok(Array.isArray(response.json().issues), JSON.stringify(response.json()))
  }
  // What to fix in words, not the schema's text.
  const said = async (payload: object) =>
    (
      await app.inject({
        method: 'POST',
        url: `/projects/${project.id}/deploy-keys`,
        headers: bearer(owner),
        payload,
      })
    ).json()
  assert.deepEqual(await said({ name: '' }), {
    error: 'Invalid request body: name must not be empty',
    issues: [{ path: 'body/name', message: 'must not be empty' }],
  })
  assert.deepEqual((await said({ name: '   ' })).issues, [
    { path: 'body/name', message: 'must not be blank' },
  ])
  assert.deepEqual((await said({})).issues, [{ path: 'body/name', message: 'is required' }])
  assert.deepEqual((await said({ name: 'x'.repeat(101) })).issues, [
    { path: 'body/name', message: 'must be at most 100 characters' },
  ])
  const { token } = await app.repos.deployKeys.create(project.id, 'ci')
  for (const [method, url] of [
    ['GET', `/projects/${project.id}/deploy-keys`],
    ['POST', `/projects/${project.id}/deploy-keys`],
  ] as const) {
    const response = await app.inject({ method, url, headers: bearer(token), payload: { name: 'escalate' } })
    assert.equal(response.statusCode, 403, `${method} ${url}`)
  }
  // A key of one project is unknown to the keys of another project of the same owner.
  const other = await createProject(app, owner, 'other-keys')
  const { deployKey } = await app.repos.deployKeys.create(other.id, 'ci')
  const crossDelete = await app.inject({
    method: 'DELETE',
    url: `/projects/${project.id}/deploy-keys/${deployKey.id}`,
    headers: bearer(owner),
  })
  assert.equal(crossDelete.statusCode, 404)
})
