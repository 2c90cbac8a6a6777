import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildApp } from '../../../server/app.js'
import { bearer, createAndUpload, createProject, deploy, manifestOf, signIn, testConfig } from '../helper.js'

test('a build claimed without a job (left by an older version) is failed with the reason at start', async (t) => {
  const config = await testConfig(t, 'sqlite')
  const before = await buildApp(config)
  const token = await signIn(before)
  await createProject(before, token, 'restarted')
  const files = new Map([['index.mdx', new TextEncoder().encode('# Hi\n')]])
  const created = await before.inject({
    method: 'POST',
    url: '/projects/slug/restarted/deployments',
    headers: bearer(token),
    payload: { branch: 'main', files: manifestOf(files) },
  })
  const { id } = created.json().deployment as { id: string }
  // As the server would leave it when killed mid-build: claimed, never finished.
  assert.equal(await before.repos.deployments.claimForBuild(id, 1), true)
  await before.close()

  const after = await buildApp(config)
  t.after(() => after.close())
  const response = await after.inject({
    url: `/projects/slug/restarted/deployments/${id}`,
    headers: bearer(token),
  })
  const deployment = response.json()
  assert.equal(deployment.status, 'failed')
  assert.deepEqual(deployment.diagnostics, [
    {
      severity: 'error',
      file: '',
      rule: 'build-interrupted',
      message: 'The build was interrupted by a server restart; push again',
    },
  ])
})

test('a build leased by a replica that died is built by the next one once its lease runs out', async (t) => {
  const config = await testConfig(t, 'sqlite', { buildLeaseSeconds: 1 })
  const before = await buildApp(config)
  const token = await signIn(before)
  await createProject(before, token, 'crashed')
  const files = new Map([
    [
      'docs.json',
      new TextEncoder().encode(JSON.stringify({ name: 'Crashed', navigation: { pages: ['index'] } })),
    ],
    ['index.mdx', new TextEncoder().encode('---\ntitle: Crashed\n---\n\nBack.\n')],
  ])
  const { deployment } = await createAndUpload(before, token, 'crashed', files)
  const project = await before.repos.projects.findBySlug('crashed')
  const row = await before.repos.deployments.findById(deployment.id)
  assert.ok(project && row)
  // As a replica killed mid-build leaves it: queued, then leased and never renewed.
  await before.repos.buildJobs.enqueue({
    deployment: row,
    ownerId: project.owner_id,
    promote: true,
    uploadMs: 1,
  })
  const dead = await before.repos.buildJobs.take({ replica: 'killed', leaseMs: 1000, maxAttempts: 3 })
  assert.equal(dead?.deploymentId, deployment.id)
  await before.close()

  const after = await buildApp(config)
  t.after(() => after.close())
  const read = async () =>
    (
      await after.inject({
        url: `/projects/slug/crashed/deployments/${deployment.id}`,
        headers: bearer(token),
      })
    ).json()
  assert.equal((await read()).status, 'building', 'starting a replica leaves a leased build alone')
  const started = performance.now()
  await after.builds.settled(deployment.id, 30_000)
  t.diagnostic(`retaken and built ${((performance.now() - started) / 1000).toFixed(2)} s after the restart`)
  const built = await read()
  assert.equal(built.status, 'ready')
  assert.equal(built.live, true)
})

test('a replica shutting down releases the lease of a build it cannot finish; the next one builds it', async (t) => {
  const config = await testConfig(t, 'sqlite')
  const before = await buildApp(config)
  const token = await signIn(before)
  await createProject(before, token, 'released')
  const files = new Map([
    [
      'docs.json',
      new TextEncoder().encode(JSON.stringify({ name: 'Released', navigation: { pages: ['index'] } })),
    ],
    ['index.mdx', new TextEncoder().encode('---\ntitle: Released\n---\n\nAgain.\n')],
  ])
  const pushed = await deploy(before, token, 'released', files, { waitSeconds: 0 })
  assert.equal(pushed.finalized.statusCode, 202, pushed.finalized.body)
  // No grace period: the running build stops and its lease goes back to the queue.
  await before.builds.close(0)
  const job = await before.db
    .selectFrom('build_jobs')
    .select(['status', 'lease_token', 'attempts'])
    .where('deployment_id', '=', pushed.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(job, { status: 'queued', lease_token: null, attempts: 0 })
  await before.close()

  const after = await buildApp(config)
  t.after(() => after.close())
  await after.ready()
  await after.builds.settled(pushed.id, 30_000)
  const built = await after.inject({
    url: `/projects/slug/released/deployments/${pushed.id}`,
    headers: bearer(token),
  })
  assert.equal(built.json().status, 'ready')
  assert.equal(built.json().live, true)
})
