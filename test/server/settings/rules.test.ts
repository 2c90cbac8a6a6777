/** The rules between settings: each stops the server with a message naming the settings to fix. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { loadConfig } from '../../../server/config.js'
import { ConfigError } from '../../../server/settings/errors.js'

const refused = (args: string[], env: NodeJS.ProcessEnv, message: string) =>
  assert.throws(
    () => loadConfig(args, env),
    (error: unknown) => error instanceof ConfigError && error.message === message,
    message,
  )

test('a Gitea token needs its server’s API address', () => {
  refused(
    ['--gitea-token', 'tok'],
    {},
    '--gitea-api-url / DOCS_GITEA_API_URL: needed with --gitea-token, e.g. https://git.example.com/api/v1',
  )
  const { git } = loadConfig(
    ['--gitea-token', 'tok', '--gitea-api-url', 'https://git.example.com/api/v1/'],
    {},
  ).config
  assert.deepEqual(git.gitea, { token: 'tok', apiUrl: 'https://git.example.com/api/v1' })
})

test('S3 keys come in pairs, with or without --blob-store', () => {
  refused(
    [],
    { DOCS_S3_SECRET_ACCESS_KEY: 'only-the-secret' },
    '--s3-access-key-id / DOCS_S3_ACCESS_KEY_ID and --s3-secret-access-key / DOCS_S3_SECRET_ACCESS_KEY: set both, or neither to use the AWS SDK credential chain',
  )
})

test('the blob grace period follows the build timeout', () => {
  refused(
    ['--build-timeout', '3600', '--gc-grace', '4000'],
    {},
    '--gc-grace / DOCS_GC_GRACE: expected a whole number from 4260 to 31536000 (the build timeout + 660), got "4000"',
  )
  assert.equal(loadConfig(['--gc-grace', '1260'], {}).config.retention.graceSeconds, 1260)
})

test('sign-in providers: one at a time, each complete, with the message listing flags and variables', () => {
  refused(
    ['--github-client-secret', 's'],
    {},
    'GitHub sign-in needs --github-client-id and --github-client-secret (DOCS_GITHUB_CLIENT_ID, DOCS_GITHUB_CLIENT_SECRET)',
  )
  refused(
    ['--github-client-id', 'a', '--github-client-secret', 'b'],
    { DOCS_OIDC_ISSUER: 'https://id.example.com' },
    'Both OpenID Connect (--oidc-*) and GitHub (--github-*) sign-in are configured; keep one',
  )
})
