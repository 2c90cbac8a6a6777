import assert from 'node:assert/strict'
import { test } from 'node:test'
import { chooseIdentityProvider, isLoopbackHost } from '../../../server/auth/providers/index.js'
import { loadConfig } from '../../../server/config.js'
import { ConfigError } from '../../../server/settings/errors.js'

const load = (args: string[], env: NodeJS.ProcessEnv = {}) => loadConfig(args, env).config

test('sign-in settings come from flags or environment variables, flags first', () => {
  const fromEnv = load([], {
    DOCS_OIDC_ISSUER: 'https://id.example.com',
    DOCS_OIDC_CLIENT_ID: 'docs',
    DOCS_OIDC_CLIENT_SECRET: 's3cret',
  })
  assert.equal(fromEnv.signIn.oidcIssuer, 'https://id.example.com')
  assert.equal(fromEnv.signIn.publicUrl, 'http://localhost:8080')
  const fromFlags = load(
    [
      '--github-client-id',
      'gh',
      '--github-client-secret',
      'ghs',
      '--public-url',
      'https://api.docs.example/',
    ],
    {
      DOCS_GITHUB_CLIENT_ID: 'ignored',
    },
  )
  assert.equal(fromFlags.signIn.githubClientId, 'gh')
  assert.equal(fromFlags.signIn.publicUrl, 'https://api.docs.example')
  assert.equal(load(['--api-host', 'api.docs.example']).signIn.publicUrl, 'https://api.docs.example')
})

test('incomplete or conflicting providers stop the server with a message naming the settings', () => {
  assert.throws(
    () => load(['--oidc-issuer', 'https://id.example.com']),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError)
      assert.match(error.message, /--oidc-client-id and --oidc-client-secret/)
      return true
    },
  )
  assert.throws(() => load(['--github-client-id', 'x']), /--github-client-secret/)
  assert.throws(
    () =>
      load([
        '--github-client-id',
        'x',
        '--github-client-secret',
        'y',
        '--oidc-issuer',
        'https://id.example.com',
      ]),
    /keep one/,
  )
  assert.throws(
    () =>
      load(['--oidc-issuer', 'http://id.example.com', '--oidc-client-id', 'a', '--oidc-client-secret', 'b']),
    /use https/,
  )
  assert.throws(() => load(['--sign-in-rate-limit', '0']), /--sign-in-rate-limit \/ DOCS_SIGN_IN_RATE_LIMIT/)
})

test('the local provider is on only without a provider and with every address on loopback', () => {
  const none = load([]).signIn
  const local = { listenHost: '127.0.0.1', apiHost: 'localhost:8080' }
  assert.equal(chooseIdentityProvider(none, local).kind, 'local')
  assert.match(chooseIdentityProvider(none, local).message, /local provider/)
  assert.match(chooseIdentityProvider(none, local).message, /forwarding header \(forwarded, x-forwarded-for/)
  assert.equal(chooseIdentityProvider(none, { ...local, listenHost: '0.0.0.0' }).kind, 'none')
  assert.equal(chooseIdentityProvider(none, { ...local, listenHost: '192.168.1.10' }).kind, 'none')
  const github = load(['--github-client-id', 'gh', '--github-client-secret', 'ghs']).signIn
  assert.equal(chooseIdentityProvider(github, local).kind, 'upstream')

  // On loopback behind a proxy that gives it a public name: anyone could reach the form.
  const public_ = load(['--api-host', 'api.docs.example']).signIn
  const proxied = chooseIdentityProvider(public_, { listenHost: '127.0.0.1', apiHost: 'api.docs.example' })
  assert.equal(proxied.kind, 'none')
  assert.match(proxied.message, /the API host api\.docs\.example, which is not loopback/)
  const publicUrl = load(['--public-url', 'https://docs.example.com']).signIn
  const published = chooseIdentityProvider(publicUrl, local)
  assert.equal(published.kind, 'none')
  assert.match(published.message, /the public URL https:\/\/docs\.example\.com, which is not loopback/)
  assert.equal(
    chooseIdentityProvider(load(['--public-url', 'http://127.0.0.1:9000']).signIn, local).kind,
    'local',
  )
  assert.equal(isLoopbackHost('[::1]'), true)
  assert.equal(isLoopbackHost('127.8.0.1'), true)
  assert.equal(isLoopbackHost('::'), false)
})
