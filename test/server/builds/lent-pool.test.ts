/**
 * Build threads lent to an app (`AppOptions.renderPool`): the app builds there and leaves them running
 * when it closes, so the next app that borrows them builds without starting threads of its own; an app
 * given none starts and stops its own.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildApp, buildLimits } from '../../../server/app.js'
import { buildThreadPool } from '../../../server/builds/pipeline.js'
import { createProject, deploy, fixtureSite, signIn, testConfig } from '../helper.js'

test('two apps in turn build on the threads lent to them, which outlive both', async (t) => {
  const first = await testConfig(t, 'sqlite')
  const pool = buildThreadPool(buildLimits(first), () => {})
  t.after(() => pool.close())
  const site = await fixtureSite('minimal')
  for (const config of [first, await testConfig(t, 'sqlite')]) {
    const app = await buildApp(config, { renderPool: pool })
    try {
      const token = await signIn(app)
      await createProject(app, token, 'lent')
      const { finalized } = await deploy(app, token, 'lent', site)
      assert.equal(finalized.statusCode, 200, finalized.body)
      assert.equal(finalized.json().status, 'ready')
    } finally {
      await app.close()
    }
    // The app closed; the threads it borrowed still run tasks.
    assert.ok(pool.piscina.threads.length > 0, 'the lent threads are still running')
  }
})
