/** The Git settings that decide where a fetch may go, read from flags and checked at start. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { loadConfig } from '../../../server/config.js'
import { ConfigError } from '../../../server/settings/errors.js'

test('which hosts and addresses a Git fetch may reach, and its limits', () => {
  const defaults = loadConfig([], {}).config.git
  assert.deepEqual(defaults.allowHosts, [])
  assert.equal(defaults.allowPrivateAddresses, false)
  assert.equal(defaults.maxFetchBytes, 1024 ** 3)
  assert.equal(defaults.maxTreeEntries, 200000)
  const set = loadConfig(
    ['--git-allow-hosts', 'Git.Example.org, mirror.example.org:8443', '--git-max-fetch-bytes', '1048576'],
    { DOCS_GIT_ALLOW_PRIVATE_ADDRESSES: 'true', DOCS_GIT_MAX_TREE_ENTRIES: '5000' },
  ).config.git
  assert.deepEqual(set.allowHosts, ['git.example.org', 'mirror.example.org:8443'])
  assert.equal(set.allowPrivateAddresses, true)
  assert.equal(set.maxFetchBytes, 1048576)
  assert.equal(set.maxTreeEntries, 5000)
  assert.throws(
    () => loadConfig(['--git-allow-hosts', 'https://git.example.org/'], {}),
    (error: unknown) => error instanceof ConfigError && /--git-allow-hosts/.test(error.message),
  )
  assert.throws(
    () => loadConfig(['--git-allow-private-addresses', 'yes'], {}),
    (error: unknown) =>
      error instanceof ConfigError && /expected true or false, got "yes"/.test(error.message),
  )
})
