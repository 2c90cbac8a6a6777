import assert from 'node:assert/strict'
import { test } from 'node:test'
import { loadConfig } from '../../../server/config.js'
import { ConfigError } from '../../../server/settings/errors.js'

test('retention settings: defaults, and a grace period shorter than a build is refused', () => {
  const { retention } = loadConfig([], {}).config
  assert.deepEqual(retention, {
    keepDeployments: 10,
    keepAgeSeconds: 7 * 24 * 3600,
    graceSeconds: 3600,
    intervalSeconds: 3600,
  })
  assert.throws(
    () => loadConfig(['--gc-grace', '60'], {}),
    (error: unknown) =>
      error instanceof ConfigError &&
      /--gc-grace \/ DOCS_GC_GRACE: expected a whole number from 1260/.test(error.message),
  )
  assert.equal(
    loadConfig(['--gc-interval', '0', '--keep-deployments', '3'], {}).config.retention.keepDeployments,
    3,
  )
  assert.equal(loadConfig(['gc', '--dry-run'], {}).dryRun, true)
})
