import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { bearer, createProject, deploy, engines, fixtureSite, signIn, testApp } from '../helper.js'

for (const engine of engines) {
  describe(`projects (${engine})`, () => {
    test("reading another account's slug answers 404 with a 'taken' issue, an unused one without", async (t) => {
      const app = await testApp(t, engine)
      const owner = await signIn(app, 'owner@example.com')
      const other = await signIn(app, 'other@example.com')
      await app.inject({
        method: 'POST',
        url: '/projects/',
        headers: bearer(owner),
        payload: { name: 'Owned', slug: 'owned' },
      })
      const taken = await app.inject({ url: '/projects/slug/owned', headers: bearer(other) })
      assert.equal(taken.statusCode, 404)
      assert.deepEqual(taken.json().issues, [{ path: 'params/slug', message: 'taken' }])
      const free = await app.inject({ url: '/projects/slug/unused', headers: bearer(other) })
      assert.equal(free.statusCode, 404)
      assert.equal(free.json().issues, undefined)
    })

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

    test('DELETE removes a project for its owner only; its site stops and the slug is free again', async (t) => {
      const app = await testApp(t, engine)
      const owner = await signIn(app, 'owner@example.com')
      const stranger = await signIn(app, 'stranger@example.com')
      const project = await createProject(app, owner, 'gone-docs')
      const { finalized } = await deploy(app, owner, 'gone-docs', await fixtureSite('minimal'))
      assert.equal(finalized.statusCode, 200, finalized.body)
      const site = () => app.inject({ url: '/', headers: { host: 'gone-docs.localhost:8080' } })
      assert.equal((await site()).statusCode, 200)
      const key = await app.inject({
        method: 'POST',
        url: `/projects/${project.id}/deploy-keys`,
        headers: bearer(owner),
        payload: { name: 'ci' },
      })
      const deployKey = key.json().token as string

      const byStranger = await app.inject({
        method: 'DELETE',
        url: `/projects/${project.id}`,
        headers: bearer(stranger),
      })
      assert.equal(byStranger.statusCode, 404, 'another user cannot tell the project exists')
      const byKey = await app.inject({
        method: 'DELETE',
        url: `/projects/${project.id}`,
        headers: bearer(deployKey),
      })
      assert.equal(byKey.statusCode, 403, 'a deploy key only deploys')

      const deleted = await app.inject({
        method: 'DELETE',
        url: `/projects/${project.id}`,
        headers: bearer(owner),
      })
      assert.equal(deleted.statusCode, 204)
      assert.equal(
        (await app.inject({ url: `/projects/${project.id}`, headers: bearer(owner) })).statusCode,
        404,
      )
      assert.equal((await site()).statusCode, 404, 'the site stops at once')
      const again = await app.inject({
        method: 'DELETE',
        url: `/projects/${project.id}`,
        headers: bearer(owner),
      })
      assert.equal(again.statusCode, 404)
      await createProject(app, owner, 'gone-docs')
    })
  })
}
