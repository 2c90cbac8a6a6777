import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  appWithProject,
  bearer,
  createAndUpload,
  deploy,
  engines,
  fixtureSite,
  manifestOf,
  multipartBody,
  sha256,
} from '../helper.js'

for (const engine of engines) {
  describe(`deployments (${engine})`, () => {
    test('deploy, upload only what changed, rebuild, list, promote back', async (t) => {
      const { app, token } = await appWithProject(t, 'acme', engine)
      const site = await fixtureSite('minimal')

      const first = await deploy(app, token, 'acme', site)
      assert.equal(first.finalized.statusCode, 200, first.finalized.body)
      const ready = first.finalized.json()
      assert.equal(ready.status, 'ready')
      assert.equal(ready.live, true)
      assert.equal(ready.url, 'http://acme.localhost:8080/')
      const row = await app.repos.deployments.findById(first.id)
      assert.match(row!.preview_token, /^[2-7a-z]{26}$/)
      assert.equal(ready.previewUrl, `http://${row!.preview_token}--acme.localhost:8080/`)
      assert.ok(!ready.previewUrl.includes(first.id), 'the preview URL does not reveal the deployment id')
      assert.equal(first.uploadedPaths.length, site.size)

      const page = await app.inject({ method: 'GET', url: '/', headers: { host: 'acme.localhost:8080' } })
      assert.equal(page.statusCode, 200)
      assert.match(page.headers['content-type'] as string, /^text\/html/)

      // Second deployment: one page changed. Only that file is uploaded, only that page re-rendered.
      const changed = new Map(site)
      changed.set('index.mdx', Buffer.concat([site.get('index.mdx')!, Buffer.from('\n\nA new paragraph.\n')]))
      const second = await deploy(app, token, 'acme', changed)
      assert.equal(second.finalized.statusCode, 200, second.finalized.body)
      assert.deepEqual(second.uploadedPaths, ['index.mdx'])
      assert.equal(second.finalized.json().stats.pagesRendered, 1)
      const live = await app.inject({ method: 'GET', url: '/', headers: { host: 'acme.localhost:8080' } })
      assert.match(live.body, /A new paragraph/)

      const list = await app.inject({
        url: '/projects/slug/acme/deployments?limit=1',
        headers: bearer(token),
      })
      assert.equal(list.statusCode, 200)
      const firstPage = list.json()
      assert.equal(firstPage.deployments[0].id, second.id)
      assert.ok(firstPage.nextCursor)
      const next = await app.inject({
        url: `/projects/slug/acme/deployments?limit=1&cursor=${firstPage.nextCursor}`,
        headers: bearer(token),
      })
      assert.equal(next.json().deployments[0].id, first.id)
      assert.equal(next.json().nextCursor, null)

      const back = await app.inject({
        method: 'POST',
        url: `/projects/slug/acme/deployments/${first.id}/promote`,
        headers: bearer(token),
      })
      assert.equal(back.statusCode, 200)
      assert.equal(back.json().live, true)
      const rolledBack = await app.inject({
        method: 'GET',
        url: '/',
        headers: { host: 'acme.localhost:8080' },
      })
      assert.doesNotMatch(rolledBack.body, /A new paragraph/)
    })

    test('finalize without waiting answers 202 building; polling reaches ready; finalize again is idempotent', async (t) => {
      const { app, token } = await appWithProject(t, 'polled', engine)
      const site = await fixtureSite('minimal')
      const created = await app.inject({
        method: 'POST',
        url: '/projects/slug/polled/deployments',
        headers: bearer(token),
        payload: { files: manifestOf(site) },
      })
      const id = created.json().deployment.id
      const body = multipartBody([...site].map(([name, bytes]) => ({ name, bytes })))
      await app.inject({
        method: 'POST',
        url: `/projects/slug/polled/deployments/${id}/files/batch`,
        headers: { ...bearer(token), ...body.headers },
        payload: body.payload,
      })
      const started = await app.inject({
        method: 'POST',
        url: `/projects/slug/polled/deployments/${id}/finalize`,
        headers: bearer(token),
        payload: { waitSeconds: 0, promote: false },
      })
      assert.equal(started.statusCode, 202, started.body)
      assert.equal(started.json().status, 'building')
      let status = 'building'
      for (let attempt = 0; status === 'building' && attempt < 600; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        status = (
          await app.inject({ url: `/projects/slug/polled/deployments/${id}`, headers: bearer(token) })
        ).json().status
      }
      assert.equal(status, 'ready')
      // Without a body: defaults apply; the finished deployment is answered again, still not live.
      const again = await app.inject({
        method: 'POST',
        url: `/projects/slug/polled/deployments/${id}/finalize`,
        headers: bearer(token),
      })
      assert.equal(again.statusCode, 200, again.body)
      assert.equal(again.json().live, false)
      assert.equal((await app.repos.projects.findBySlug('polled'))?.live_deployment_id, null)
      const previewHost = new URL(again.json().previewUrl).host
      const preview = await app.inject({ url: '/', headers: { host: previewHost } })
      assert.equal(preview.statusCode, 200)
      const byId = await app.inject({ url: '/', headers: { host: `${id}--polled.localhost:8080` } })
      assert.equal(byId.statusCode, 404, 'a deployment id does not name its preview host')
      assert.equal(
        (await app.inject({ url: '/', headers: { host: 'polled.localhost:8080' } })).statusCode,
        404,
      )
    })

    test('a failed build keeps its diagnostics and never goes live', async (t) => {
      const { app, token } = await appWithProject(t, 'broken', engine)
      const result = await deploy(app, token, 'broken', new Map([['docs.json', Buffer.from('{ "name": ')]]))
      assert.equal(result.finalized.statusCode, 422, result.finalized.body)
      const body = result.finalized.json()
      assert.equal(body.deployment.status, 'failed')
      assert.equal(body.deployment.live, false)
      assert.ok(body.deployment.diagnostics.length > 0)
      const promote = await app.inject({
        method: 'POST',
        url: `/projects/slug/broken/deployments/${result.id}/promote`,
        headers: bearer(token),
      })
      assert.equal(promote.statusCode, 409)
      const site = await app.inject({ method: 'GET', url: '/', headers: { host: 'broken.localhost:8080' } })
      assert.equal(site.statusCode, 404)
    })

    test('a build that outruns the build limit is stopped, fails with a reason and never goes live', async (t) => {
      // A limit of one millisecond: the worker is stopped long before the compiler finishes.
      const { app, token } = await appWithProject(t, 'slow', engine, { buildTimeoutSeconds: 0.001 })
      const result = await deploy(app, token, 'slow', await fixtureSite('minimal'))
      assert.equal(result.finalized.statusCode, 422, result.finalized.body)
      const body = result.finalized.json()
      assert.equal(body.deployment.status, 'failed')
      assert.equal(body.deployment.live, false)
      assert.match(body.deployment.diagnostics[0].message, /ran longer than the \d+ s build limit/)
      const served = await app.inject({ method: 'GET', url: '/', headers: { host: 'slow.localhost:8080' } })
      assert.equal(served.statusCode, 404)
    })

    test('finalize lists missing files; uploads are checked against the manifest', async (t) => {
      const { app, token } = await appWithProject(t, 'checks', engine)
      const files = new Map([
        ['docs.json', Buffer.from('{}')],
        ['index.mdx', Buffer.from('# Hi\n')],
      ])
      const created = await app.inject({
        method: 'POST',
        url: '/projects/slug/checks/deployments',
        headers: bearer(token),
        payload: { files: manifestOf(files) },
      })
      assert.equal(created.statusCode, 201)
      const { deployment, missing } = created.json()
      assert.equal(deployment.branch, 'main')
      assert.equal(deployment.status, 'uploading')
      assert.deepEqual([...missing].sort(), [sha256('{}'), sha256('# Hi\n')].sort())
      const base = `/projects/slug/checks/deployments/${deployment.id}`

      const early = await app.inject({
        method: 'POST',
        url: `${base}/finalize`,
        headers: bearer(token),
        payload: {},
      })
      assert.equal(early.statusCode, 400)
      assert.deepEqual(early.json().issues, [
        { path: 'docs.json', message: 'missing' },
        { path: 'index.mdx', message: 'missing' },
      ])

      const wrong = multipartBody([{ name: 'index.mdx', bytes: '# Not what was declared\n' }])
      const mismatch = await app.inject({
        method: 'POST',
        url: `${base}/files/batch`,
        headers: { ...bearer(token), ...wrong.headers },
        payload: wrong.payload,
      })
      assert.equal(mismatch.statusCode, 400)
      assert.equal(mismatch.json().issues[0].path, 'index.mdx')

      const unknown = multipartBody([{ name: 'other.mdx', bytes: 'x' }])
      const unknownPath = await app.inject({
        method: 'POST',
        url: `${base}/files/batch`,
        headers: { ...bearer(token), ...unknown.headers },
        payload: unknown.payload,
      })
      assert.equal(unknownPath.statusCode, 400)
      assert.match(unknownPath.json().issues[0].message, /not in the deployment manifest/)

      const good = multipartBody([{ name: 'docs.json', bytes: '{}' }])
      const ok = await app.inject({
        method: 'POST',
        url: `${base}/files/batch`,
        headers: { ...bearer(token), ...good.headers },
        payload: good.payload,
      })
      assert.equal(ok.statusCode, 200)
      assert.deepEqual(ok.json(), {
        received: [{ path: 'docs.json', sha256: sha256('{}') }],
        missing: [sha256('# Hi\n')],
      })

      const truncated = multipartBody([{ name: 'index.mdx', bytes: '# Hi\n' }])
      const cut = await app.inject({
        method: 'POST',
        url: `${base}/files/batch`,
        headers: { ...bearer(token), ...truncated.headers },
        payload: truncated.payload.subarray(0, truncated.payload.length - 30),
      })
      assert.equal(cut.statusCode, 400)
      assert.ok(cut.json().error)
    })
  })
}

test('a finalize without a body gets the schema defaults: it waits for the build and promotes', async (t) => {
  const { app, token } = await appWithProject(t, 'defaults')
  const { deployment } = await createAndUpload(app, token, 'defaults', await fixtureSite('minimal'), {})
  assert.equal(deployment.branch, 'main')
  assert.equal(deployment.commitMessage, null)
  const finalized = await app.inject({
    method: 'POST',
    url: `/projects/slug/defaults/deployments/${deployment.id}/finalize`,
    headers: bearer(token),
  })
  assert.equal(finalized.statusCode, 200, finalized.body)
  assert.equal(finalized.json().live, true)
  assert.equal((await app.repos.projects.findBySlug('defaults'))?.live_deployment_id, deployment.id)
})
