/**
 * A delivery deploys only the commit its branch points at when it runs, asked of the repository: a
 * signed push of an older commit (captured, or sent late) never rolls the site back, a commit already
 * live is not built again, and a deletion of a branch that exists again removes nothing.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { zeroSha } from './deliveries.js'
import { docsJson, gitlabWorld, page } from './world.js'

test("only the branch's newest commit deploys; an older one never rolls the site back", async (t) => {
  const world = await gitlabWorld(t, { allowPrivateAddresses: true })
  const repository = await world.gitlab.createRepository('acme/docs', {
    acceptsToken: (token, username) => username === 'oauth2' && token !== '',
  })
  assert.equal(
    (await world.connect({ repositoryUrl: repository.url, previewBranches: ['preview/*'] })).statusCode,
    200,
  )
  const v1 = await repository.commit(
    'main',
    { 'docs.json': docsJson('acme'), 'index.mdx': page('Version one.') },
    'One',
  )
  assert.equal((await world.push(repository.url, 'main', v1)).statusCode, 202)
  assert.equal((await world.settle()).status, 'deployed')
  const v2 = await repository.commit('main', { 'index.mdx': page('Version two.') }, 'Two')
  assert.equal((await world.push(repository.url, 'main', v2, { before: v1 })).statusCode, 202)
  assert.equal((await world.settle()).status, 'deployed')

  // A push of v1 signed anew (its body differs from the captured one): main is at v2.
  assert.equal((await world.push(repository.url, 'main', v1, { before: v2 })).statusCode, 202)
  const old = await world.settle()
  assert.equal(old.status, 'superseded')
  assert.equal(old.detail, `main is at ${v2} now: only the newest commit of a branch deploys`)
  assert.match((await world.site()).body, /Version two\./)

  // v2 again, in another body: it is what is live, so nothing is built.
  assert.equal((await world.push(repository.url, 'main', v2, { before: zeroSha })).statusCode, 202)
  const same = await world.settle()
  assert.equal(same.status, 'skipped')
  assert.equal(same.detail, `${v2} is already deployed from main`)
  const ofV2 = await world.app.db
    .selectFrom('deployments')
    .select('id')
    .where('commit_sha', '=', v2)
    .execute()
  assert.equal(ofV2.length, 1)

  // A preview branch, then a deletion of it while it still exists: the preview stays.
  const preview = await repository.commit('preview/new', { 'index.mdx': page('A preview.') }, 'Preview')
  assert.equal((await world.push(repository.url, 'preview/new', preview)).statusCode, 202)
  assert.equal((await world.settle()).status, 'deployed')
  assert.equal(
    (await world.push(repository.url, 'preview/new', zeroSha, { before: preview })).statusCode,
    202,
  )
  const kept = await world.settle()
  assert.equal(kept.status, 'skipped')
  assert.equal(kept.detail, `Branch preview/new exists (at ${preview}); its preview stays`)
  assert.match((await world.site('preview-new--acme.localhost:8080')).body, /A preview\./)
  // Deleted for real: the same kind of delivery removes it.
  await repository.deleteBranch('preview/new')
  assert.equal(
    (await world.push(repository.url, 'preview/new', zeroSha, { before: preview })).statusCode,
    202,
  )
  assert.equal((await world.settle()).detail, 'Branch preview/new was deleted; its preview was removed')
  assert.equal((await world.site('preview-new--acme.localhost:8080')).status, 404)
})
