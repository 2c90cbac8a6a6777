import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildApp } from '../../../server/app.js'
import { bearer, createProject, manifestOf, signIn, testConfig } from '../helper.js'

test('a build interrupted by a restart is failed with the reason, visible in the deployment', async (t) => {
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
