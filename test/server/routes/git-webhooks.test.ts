/**
 * A delivery id is a header no signature covers: a push is known by its signed body, so a captured
 * delivery sent again under a new id is refused like the same delivery sent twice.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { zeroSha } from '../git/deliveries.js'
import { docsJson, gitlabWorld, page } from '../git/world.js'

test('a captured push sent again under a new delivery id is refused and deploys nothing', async (t) => {
  const world = await gitlabWorld(t, { allowPrivateAddresses: true })
  const repository = await world.gitlab.createRepository('acme/docs')
  assert.equal((await world.connect({ repositoryUrl: repository.url })).statusCode, 200)
  const v1 = await repository.commit(
    'main',
    { 'docs.json': docsJson('acme'), 'index.mdx': page('Version one.') },
    'One',
  )
  assert.equal((await world.push(repository.url, 'main', v1, { deliveryId: randomUUID() })).statusCode, 202)
  assert.equal((await world.settle()).status, 'deployed')
  const v2 = await repository.commit('main', { 'index.mdx': page('Version two.') }, 'Two')
  assert.equal((await world.push(repository.url, 'main', v2, { before: v1 })).statusCode, 202)
  assert.equal((await world.settle()).status, 'deployed')

  // The body of v1's push, byte for byte, under a delivery id never seen.
  const replay = await world.push(repository.url, 'main', v1, { deliveryId: randomUUID() })
  assert.equal(replay.statusCode, 401, replay.body)
  assert.match(replay.json().error, /already received \(a replay\)/)
  await world.app.gitDeployer.idle()
  assert.equal((await world.app.repos.git.recentDeliveries(world.project.id, 10)).length, 2)
  assert.match((await world.site()).body, /Version two\./)
  assert.equal(
    world.logLines.filter((line) => line.includes('webhook delivery refused')).length,
    1,
    'the refusal is logged',
  )
  // A branch deletion names no commit, so two of them are told apart by their delivery ids.
  const deleted = await world.push(repository.url, 'gone', zeroSha, { deliveryId: randomUUID() })
  assert.equal(deleted.statusCode, 202)
  const again = await world.push(repository.url, 'gone', zeroSha, { deliveryId: randomUUID() })
  assert.equal(again.statusCode, 202)
})
