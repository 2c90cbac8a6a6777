/** Credentials: missing, malformed, expired and revoked tokens, and what a deploy key may do. */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { hashToken } from '../../../server/tokens.js'
import { bearer, createProject, deploy, engines, fixtureSite, signIn, testApp } from '../helper.js'

for (const engine of engines) {
  describe(`credentials (${engine})`, () => {
    test('no token, a malformed, unknown or expired token: 401 with a reason', async (t) => {
      const app = await testApp(t, engine)
      const none = await app.inject({ url: '/projects/' })
      assert.equal(none.statusCode, 401)
      assert.equal(none.headers['www-authenticate'], 'Bearer')
      assert.match(none.json().error, /token/)
      const malformed = await app.inject({ url: '/projects/', headers: { authorization: 'Basic abc' } })
      assert.equal(malformed.statusCode, 401)
      assert.match(malformed.json().error, /Bearer/)
      const unknown = await app.inject({ url: '/projects/', headers: bearer(`dsa_${'a'.repeat(43)}`) })
      assert.equal(unknown.statusCode, 401)
      assert.match(unknown.json().error, /Unknown/)

      const token = await signIn(app)
      await app.db
        .updateTable('access_tokens')
        .set({ expires_at: '2000-01-01T00:00:00.000Z' })
        .where('token_hash', '=', hashToken(token))
        .execute()
      const expired = await app.inject({ url: '/projects/', headers: bearer(token) })
      assert.equal(expired.statusCode, 401)
      assert.match(expired.json().error, /Expired/)
    })

    test('a deploy key deploys its own project only and may do nothing else', async (t) => {
      const app = await testApp(t, engine)
      const owner = await signIn(app)
      const project = await createProject(app, owner, 'keyed')
      const other = await createProject(app, owner, 'other-project')
      const { token: key, deployKey } = await app.repos.deployKeys.create(project.id, 'ci')
      assert.match(key, /^dk_/)

      const created = await app.inject({
        method: 'POST',
        url: '/projects/slug/keyed/deployments',
        headers: bearer(key),
        payload: { files: [] },
      })
      assert.equal(created.statusCode, 201)
      const id = created.json().deployment.id
      assert.equal(
        (await app.inject({ url: '/projects/slug/keyed/deployments', headers: bearer(key) })).statusCode,
        200,
      )
      assert.equal(
        (await app.inject({ url: `/projects/slug/keyed/deployments/${id}`, headers: bearer(key) }))
          .statusCode,
        200,
      )

      const forbidden = [
        ['GET', '/projects/'],
        ['GET', `/projects/${project.id}`],
        ['PATCH', `/projects/${project.id}`],
        ['GET', '/projects/slug/keyed'],
        ['POST', `/projects/slug/keyed/deployments/${id}/promote`],
      ] as const
      for (const [method, url] of forbidden) {
        const response = await app.inject({ method, url, headers: bearer(key), payload: {} })
        assert.equal(response.statusCode, 403, `${method} ${url}`)
      }
      for (const [method, url] of [
        ['GET', `/projects/${other.id}`],
        ['GET', '/projects/slug/other-project/deployments'],
        ['POST', '/projects/slug/other-project/deployments'],
      ] as const) {
        const response = await app.inject({ method, url, headers: bearer(key), payload: {} })
        assert.equal(response.statusCode, 404, `${method} ${url}`)
      }
      const row = await app.db
        .selectFrom('deploy_keys')
        .selectAll()
        .where('id', '=', deployKey.id)
        .executeTakeFirstOrThrow()
      assert.ok(row.last_used_at)
      assert.notEqual(row.token_hash, key)

      await app.repos.deployKeys.revoke(project.id, deployKey.id)
      const revoked = await app.inject({ url: '/projects/slug/keyed/deployments', headers: bearer(key) })
      assert.equal(revoked.statusCode, 401)
    })
  })
}

test('a deploy key can push a whole site', async (t) => {
  const app = await testApp(t)
  const owner = await signIn(app)
  const project = await createProject(app, owner, 'pushed')
  const { token: key } = await app.repos.deployKeys.create(project.id, 'ci')
  const result = await deploy(app, key, 'pushed', await fixtureSite('minimal'))
  assert.ok([200, 422].includes(result.finalized.statusCode), result.finalized.body)
})

test('rate limits answer 429 with Retry-After, per token', async (t) => {
  const app = await testApp(t, 'sqlite', { rateLimitPerMinute: 3 })
  const token = await signIn(app)
  const statuses: number[] = []
  let retryAfter: string | undefined
  for (let i = 0; i < 4; i++) {
    const response = await app.inject({ url: '/projects/', headers: bearer(token) })
    statuses.push(response.statusCode)
    if (response.statusCode === 429) {
      retryAfter = response.headers['retry-after'] as string
      assert.match(response.json().error, /Rate limit/)
    }
  }
  assert.deepEqual(statuses, [200, 200, 200, 429])
  assert.ok(Number(retryAfter) > 0)
  // Another token has its own budget.
  const fresh = await app.inject({ url: '/projects/', headers: bearer(await signIn(app, 'b@example.com')) })
  assert.equal(fresh.statusCode, 200)
  // Made-up tokens share the IP's budget, so guessing is limited too.
  const guesses: number[] = []
  for (let i = 0; i < 4; i++) {
    const guess = await app.inject({ url: '/projects/', headers: bearer(`dsa_${String(i).repeat(43)}`) })
    guesses.push(guess.statusCode)
  }
  assert.deepEqual(guesses, [401, 401, 401, 429])
})
