import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { bearer, createProject, engines, signIn, testApp } from '../helper.js'

for (const engine of engines) {
  describe(`projects (${engine})`, () => {
    test('create, list, read by id and slug, update; slugs are checked and unique', async (t) => {
      const app = await testApp(t, engine)
      const token = await signIn(app)
      const created = await app.inject({
        method: 'POST',
        url: '/projects/',
        headers: bearer(token),
        payload: { name: 'Acme Docs', slug: 'acme-docs', description: 'Guides' },
      })
      assert.equal(created.statusCode, 201)
      const project = created.json()
      assert.match(project.id, /^prj_[a-z2-7]+$/)
      assert.equal(project.url, 'http://acme-docs.localhost:8080/')
      assert.equal(project.liveDeploymentId, null)
      assert.equal(project.deploymentName, null)
      assert.equal(project.description, 'Guides')
      assert.ok(!Number.isNaN(Date.parse(project.createdAt)))

      const list = await app.inject({ url: '/projects/', headers: bearer(token) })
      assert.deepEqual(list.json(), { projects: [project] })
      assert.deepEqual(
        (await app.inject({ url: `/projects/${project.id}`, headers: bearer(token) })).json(),
        project,
      )
      assert.deepEqual(
        (await app.inject({ url: '/projects/slug/acme-docs', headers: bearer(token) })).json(),
        project,
      )

      const patched = await app.inject({
        method: 'PATCH',
        url: `/projects/${project.id}`,
        headers: bearer(token),
        payload: { name: 'Acme', deploymentName: 'v2', description: null },
      })
      assert.equal(patched.statusCode, 200)
      assert.equal(patched.json().name, 'Acme')
      assert.equal(patched.json().deploymentName, 'v2')
      assert.equal(patched.json().description, null)

      const slugChange = await app.inject({
        method: 'PATCH',
        url: `/projects/${project.id}`,
        headers: bearer(token),
        payload: { slug: 'other' },
      })
      assert.equal(slugChange.statusCode, 400)
      assert.deepEqual(slugChange.json().issues, [{ path: 'body/slug', message: 'not updatable' }])

      const taken = await app.inject({
        method: 'POST',
        url: '/projects/',
        headers: bearer(await signIn(app, 'other@example.com')),
        payload: { name: 'Again', slug: 'acme-docs' },
      })
      assert.equal(taken.statusCode, 409)

      for (const [slug, message] of [
        ['ab', /3 to 63/],
        ['Acme', /lowercase/],
        ['-acme', /start or end/],
        ['a--b', /--/],
        ['api', /reserved/],
        ['x'.repeat(64), /3 to 63/],
      ] as const) {
        const bad = await app.inject({
          method: 'POST',
          url: '/projects/',
          headers: bearer(token),
          payload: { name: 'X', slug },
        })
        assert.equal(bad.statusCode, 400, slug)
        assert.equal(bad.json().issues[0].path, 'body/slug')
        assert.match(bad.json().issues[0].message, message)
      }
      const wrongShape = await app.inject({
        method: 'POST',
        url: '/projects/',
        headers: bearer(token),
        payload: { name: 5, extra: true },
      })
      assert.equal(wrongShape.statusCode, 400)
      const paths = wrongShape
        .json()
        .issues.map((issue: { path: string }) => issue.path)
        .sort()
      assert.deepEqual(paths, ['body/extra', 'body/name', 'body/slug'])
    })

    test("another user's project is 404, whatever route", async (t) => {
      const app = await testApp(t, engine)
      const owner = await signIn(app, 'owner@example.com')
      const stranger = await signIn(app, 'stranger@example.com')
      const project = await createProject(app, owner, 'private-docs')
      for (const [method, url] of [
        ['GET', `/projects/${project.id}`],
        ['PATCH', `/projects/${project.id}`],
        ['GET', '/projects/slug/private-docs'],
        ['GET', '/projects/slug/private-docs/deployments'],
        ['POST', '/projects/slug/private-docs/deployments'],
        ['GET', '/projects/slug/private-docs/deployments/dpl_aaaa'],
        ['POST', '/projects/slug/private-docs/deployments/dpl_aaaa/finalize'],
        ['POST', '/projects/slug/private-docs/deployments/dpl_aaaa/promote'],
      ] as const) {
        const response = await app.inject({ method, url, headers: bearer(stranger), payload: {} })
        assert.equal(response.statusCode, 404, `${method} ${url}`)
        assert.ok(response.json().error)
      }
      const mine = await app.inject({ url: '/projects/', headers: bearer(stranger) })
      assert.deepEqual(mine.json(), { projects: [] })
      const unknown = await app.inject({ url: '/projects/prj_doesnotexist', headers: bearer(owner) })
      assert.equal(unknown.statusCode, 404)
      const slugAsId = await app.inject({ url: '/projects/private-docs', headers: bearer(owner) })
      assert.equal(slugAsId.statusCode, 404)
    })
  })
}
