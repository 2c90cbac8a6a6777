import assert from 'node:assert/strict'
import { test } from 'node:test'
import { appWithProject, bearer, createAndUpload, signIn } from '../helper.js'

const site = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([path, text]) => [path, Buffer.from(text)]))

test("a deployment's files are compared with the previous deployment; another user gets 404", async (t) => {
  const { app, token } = await appWithProject(t, 'acme')
  const first = await createAndUpload(
    app,
    token,
    'acme',
    site({ 'docs.json': '{}', 'a.mdx': 'A', 'b.mdx': 'B' }),
  )
  const second = await createAndUpload(
    app,
    token,
    'acme',
    site({ 'docs.json': '{}', 'a.mdx': 'A2', 'c.mdx': 'C' }),
  )
  const read = (id: string, as = token) =>
    app.inject({ url: `/projects/slug/acme/deployments/${id}/files`, headers: bearer(as) })

  const initial = (await read(first.deployment.id)).json()
  assert.equal(initial.previousDeploymentId, null)
  assert.equal(initial.changedCount, 3)
  assert.deepEqual(
    initial.files.map((file: { change: string }) => file.change),
    ['added', 'added', 'added'],
  )

  const answer = await read(second.deployment.id)
  assert.equal(answer.statusCode, 200, answer.body)
  const listing = answer.json()
  assert.equal(listing.previousDeploymentId, first.deployment.id)
  assert.deepEqual(
    listing.files.map((file: { path: string; change: string; size: number }) => [
      file.path,
      file.change,
      file.size,
    ]),
    [
      ['a.mdx', 'changed', 2],
      ['c.mdx', 'added', 1],
      ['docs.json', 'unchanged', 2],
    ],
  )
  assert.deepEqual(listing.removed, ['b.mdx'])
  assert.equal(listing.changedCount, 3)

  const summary = (
    await app.inject({
      url: `/projects/slug/acme/deployments/${second.deployment.id}/files?summary=true`,
      headers: bearer(token),
    })
  ).json()
  assert.deepEqual(summary, {
    previousDeploymentId: first.deployment.id,
    changedCount: 3,
    files: [],
    removed: [],
  })

  const stranger = await signIn(app, 'mallory@example.com')
  assert.equal((await read(second.deployment.id, stranger)).statusCode, 404)
  assert.equal((await read('dpl_unknown')).statusCode, 404)
})
