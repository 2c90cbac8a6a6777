/**
 * The Host cache: bounded, refreshed in the background once old (a resolved site never waits on the
 * database), and a flood of made-up hosts cannot push real sites out.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { HostResolver } from '../../../server/sites/resolve-host.js'
import { createProject, signIn, testApp } from '../helper.js'
import { page, publish } from './publish.js'

async function resolverApp(
  t: Parameters<typeof testApp>[0],
  cache: ConstructorParameters<typeof HostResolver>[2],
) {
  const app = await testApp(t)
  await createProject(app, await signIn(app), 'acme')
  const { projectId } = await publish(app, 'acme', { 'index.html': page('Home') })
  return { app, projectId, resolver: new HostResolver(app.config, app.repos, cache) }
}

test('a flood of random Host headers does not evict the sites already cached', async (t) => {
  const { resolver } = await resolverApp(t, { ttlMs: 60_000, maxSites: 100, maxMisses: 50 })
  const site = await resolver.resolve('acme.localhost:8080')
  assert.ok('targets' in site)
  for (let index = 0; index < 2_000; index++) {
    const answer = await resolver.resolve(
      `random-${index}-${Math.random().toString(36).slice(2)}.example.net`,
    )
    assert.ok('missing' in answer)
  }
  assert.equal(resolver.peek('acme.localhost:8080')?.[0]?.slug, 'acme', 'the real site is still cached')
})

test('an old answer keeps serving while a background lookup refreshes it; a promotion is seen at once', async (t) => {
  // Not 0: lru-cache reads a start time of 0 as "no TTL".
  let now = 1_000
  const { app, projectId, resolver } = await resolverApp(t, { ttlMs: 300, clock: { now: () => now } })
  const next = await publish(app, 'acme', { 'index.html': page('Next') }, false)
  const before = await resolver.resolve('acme.localhost:8080')
  assert.ok('targets' in before)
  // Promoted without an announcement (one lost while this replica's connection was down): this
  // replica keeps its answer until the TTL runs out.
  await app.repos.projects.setLiveDeployment(projectId, next.deploymentId)
  assert.equal(resolver.peek('acme.localhost:8080')?.[0]?.deploymentId, before.targets[0]?.deploymentId)
  now += 350
  assert.equal(
    resolver.peek('acme.localhost:8080')?.[0]?.deploymentId,
    before.targets[0]?.deploymentId,
    'past its TTL the answer still serves, without waiting, while it is looked up again',
  )
  let refreshed: string | undefined
  for (let tries = 0; tries < 100 && refreshed !== next.deploymentId; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
    refreshed = resolver.peek('acme.localhost:8080')?.[0]?.deploymentId
  }
  assert.equal(refreshed, next.deploymentId, 'the background lookup replaced it')

  // A first promotion turns a cached "nothing live yet" into the site without waiting for the TTL.
  const long = new HostResolver(app.config, app.repos, { ttlMs: 60_000 })
  await createProject(app, await signIn(app), 'later')
  const waiting = await long.resolve('later.localhost:8080')
  assert.ok('missing' in waiting && waiting.noLiveDeployment)
  const later = await publish(app, 'later', { 'index.html': page('Later') }, false)
  await app.repos.projects.setLiveDeployment(later.projectId, later.deploymentId)
  long.forgetProject(later.projectId)
  assert.ok('targets' in (await long.resolve('later.localhost:8080')))
})
