import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isApiHost } from '../../server/app.js'
import { loadConfig } from '../../server/config.js'
import { siteUrl } from '../../server/presenters.js'
import { ConfigError } from '../../server/settings/errors.js'
import { settingsHelp } from '../../server/settings/help.js'
import { settings } from '../../server/settings/table.js'

test('defaults need nothing: localhost:8080, SQLite in ./.docs-data', () => {
  const { config } = loadConfig([], {})
  assert.equal(config.port, 8080)
  assert.equal(config.host, '127.0.0.1')
  assert.equal(config.baseDomain, 'localhost:8080')
  assert.equal(config.apiHost, 'localhost:8080')
  assert.equal(config.databaseUrl, undefined)
  assert.match(config.dataDir, /\.docs-data$/)
  assert.equal(config.maxFileBytes, 25 * 1024 * 1024)
  assert.equal(config.maxFilesPerDeployment, 20_000)
  assert.deepEqual(config.trustProxy, [], 'X-Forwarded-For is believed from no one')
})

test('the default base domain and API host follow --port or PORT; set ones are kept', () => {
  const moved = loadConfig(['--port', '8099'], {}).config
  assert.equal(moved.baseDomain, 'localhost:8099')
  assert.equal(moved.apiHost, 'localhost:8099')
  assert.equal(loadConfig([], { PORT: '9000' }).config.apiHost, 'localhost:9000')
  const set = loadConfig(['--port', '8099', '--base-domain', 'docs.example.com'], {}).config
  assert.equal(set.baseDomain, 'docs.example.com')
  assert.equal(set.apiHost, 'localhost:8099')
  assert.match(settingsHelp(), /\(default localhost:<port>\)/)
})

test('--trust-proxy takes addresses, CIDRs and proxy-addr’s named ranges, comma-separated', () => {
  const { config } = loadConfig(['--trust-proxy', '10.0.0.1, 192.168.0.0/16,::1,fd00::/8,loopback'], {})
  assert.deepEqual(config.trustProxy, ['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8', 'loopback'])
  assert.deepEqual(loadConfig([], { DOCS_TRUST_PROXY: '172.16.0.0/12' }).config.trustProxy, ['172.16.0.0/12'])
  for (const bad of ['proxy.example.com', '10.0.0.0/33', '::/129', '10.0.0.1/8/8', '10.0.0.0/x', 'true']) {
    assert.throws(
      () => loadConfig(['--trust-proxy', bad], {}),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.startsWith('--trust-proxy / DOCS_TRUST_PROXY: expected addresses or CIDRs') &&
        error.message.endsWith(`got "${bad}"`),
      bad,
    )
  }
})

test('flags win over environment variables', () => {
  const { config } = loadConfig(['--port', '9000', '--base-domain', 'Docs.Example.com'], {
    PORT: '7000',
    DOCS_API_HOST: 'api.example.com',
    DATABASE_URL: 'postgres://u@h/db',
  })
  assert.equal(config.port, 9000)
  assert.equal(config.baseDomain, 'docs.example.com')
  assert.equal(config.apiHost, 'api.example.com')
  assert.equal(config.databaseUrl, 'postgres://u@h/db')
  assert.equal(siteUrl(config, 'acme'), 'https://acme.docs.example.com/')
})

test('bad values stop start-up with a message naming the flag and variable', () => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [['--port', 'eighty'], {}, /--port \/ PORT: expected a whole number from 0 to 65535, got "eighty"/],
    [[], { PORT: '70000' }, /--port \/ PORT/],
    [[], { DATABASE_URL: 'mysql://x' }, /--database-url \/ DATABASE_URL: expected a postgres:\/\/ URL/],
    [['--base-domain', 'bad domain'], {}, /--base-domain \/ DOCS_BASE_DOMAIN/],
    [['--log-level', 'loud'], {}, /--log-level \/ LOG_LEVEL: expected one of/],
    [['--frobnicate'], {}, /^Unknown option --frobnicate\. Run docs-server --help/],
    [['--prot', '3000'], {}, /^Unknown option --prot \(did you mean --port\?\)\. Run docs-server --help/],
    [['--databse-url=x'], {}, /^Unknown option --databse-url \(did you mean --database-url\?\)/],
  ]
  for (const [args, env, message] of cases) {
    assert.throws(
      () => loadConfig(args, env),
      (error: unknown) => error instanceof ConfigError && message.test(error.message),
    )
  }
})

test('--help lists every setting with its variable', () => {
  const help = settingsHelp()
  for (const setting of Object.values(settings)) {
    assert.ok(help.includes(`--${setting.flag}`), setting.flag)
    assert.ok(help.includes(setting.env), setting.env)
  }
})

test('the API answers on its host at any port and on bare IPs; other hosts are sites', () => {
  const config = { apiHost: 'localhost:8080' }
  assert.equal(isApiHost(config, 'localhost:8080'), true)
  assert.equal(isApiHost(config, 'localhost'), true)
  assert.equal(isApiHost(config, '127.0.0.1:8080'), true)
  assert.equal(isApiHost(config, '[::1]:8080'), true)
  assert.equal(isApiHost(config, undefined), true)
  assert.equal(isApiHost(config, 'acme.localhost:8080'), false)
  assert.equal(isApiHost(config, 'docs.example.com'), false)
})
