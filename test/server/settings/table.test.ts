/** The settings table itself: one flag and one variable per setting, defaults that parse, empty means unset. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { loadConfig } from '../../../server/config.js'
import { ConfigError } from '../../../server/settings/errors.js'
import { readSettings } from '../../../server/settings/read.js'
import { type SettingSpec, settingGroups, settingNames, settings } from '../../../server/settings/table.js'

const all: SettingSpec<unknown>[] = Object.values(settings)

test('each flag and each variable names one setting, and no flag is taken by a command', () => {
  const flags = all.map((setting) => setting.flag)
  const variables = all.map((setting) => setting.env)
  assert.equal(new Set(flags).size, flags.length, 'flags')
  assert.equal(new Set(variables).size, variables.length, 'variables')
  for (const command of ['help', 'dry-run', 'email', 'name']) assert.ok(!flags.includes(command), command)
  for (const setting of all) {
    assert.match(setting.flag, /^[a-z0-9]+(-[a-z0-9]+)*$/, setting.flag)
    assert.match(setting.env, /^[A-Z][A-Z0-9_]*$/, setting.env)
    assert.ok(setting.group in settingGroups, setting.flag)
    assert.ok(setting.help.length > 0 && setting.parse.accepts.length > 0, setting.flag)
  }
})

test('every default is a value its own parser accepts', () => {
  const values = readSettings(() => undefined)
  for (const name of settingNames) {
    const fallback = settings[name] as SettingSpec<unknown>
    if (fallback.default === undefined) assert.equal(values[name], undefined, name)
    else assert.notEqual(values[name], undefined, name)
  }
})

test('an empty flag or variable counts as unset: the default, or off', () => {
  const { config } = loadConfig(['--port', '', '--metrics-token', ' '], { DOCS_BUILD_TIMEOUT: '', HOST: '' })
  assert.equal(config.port, 8080)
  assert.equal(config.host, '127.0.0.1')
  assert.equal(config.buildTimeoutSeconds, 600)
  assert.equal(config.metricsToken, undefined)
})

test('a bad value is refused even when the setting it goes with is off', () => {
  // Before the table, S3 settings were read only with --blob-store: a typo waited for the day S3 was on.
  assert.throws(
    () => loadConfig(['--s3-force-path-style', 'yes'], {}),
    (error: unknown) =>
      error instanceof ConfigError &&
      error.message === '--s3-force-path-style / DOCS_S3_FORCE_PATH_STYLE: expected true or false, got "yes"',
  )
})

test('a secret too short is refused by its length, never echoed', () => {
  assert.throws(
    () => loadConfig([], { DOCS_GIT_WEBHOOK_KEY: 'hunter2' }),
    (error: unknown) =>
      error instanceof ConfigError &&
      error.message ===
        '--git-webhook-key / DOCS_GIT_WEBHOOK_KEY: expected at least 32 characters of random text, got 7',
  )
})
