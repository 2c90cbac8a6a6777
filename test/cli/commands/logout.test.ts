import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { writeSession } from '../../../cli/credentials.js'
import { needs } from '../../tier.js'
import { startDocsServer } from '../helpers/docs-server.js'
import { runCli } from './cli-run.js'

test('logout revokes the session on the server before removing it here', {
  skip: needs('a built binary'),
}, async (t) => {
  const server = await startDocsServer()
  t.after(() => server.stop())
  const configDir = await mkdtemp(join(tmpdir(), 'docsctl-logout-'))
  t.after(() => rm(configDir, { recursive: true, force: true }))
  const token = await server.tokenFor('ada@example.com')
  const env = { DOCSCTL_CONFIG_DIR: configDir }
  await writeSession(
    {
      apiUrl: server.apiUrl,
      accessToken: token,
      refreshToken: null,
      expiresAt: null,
      tokenEndpoint: `${server.apiUrl}/oauth/token`,
      email: 'ada@example.com',
    },
    env,
  )
  const me = () => fetch(`${server.apiUrl}/me`, { headers: { authorization: `Bearer ${token}` } })
  assert.equal((await me()).status, 200)
  const logout = runCli(['logout'], tmpdir(), env)
  assert.equal(logout.status, 0, logout.stderr)
  assert.match(
    logout.stdout,
    /^Signed out of http:\/\/127\.0\.0\.1:\d+: the session is revoked on the server and/,
  )
  assert.equal((await me()).status, 401, 'the token still works after logout')

  // A server that is gone: the file goes all the same, with a warning.
  await writeSession(
    {
      apiUrl: 'http://127.0.0.1:9',
      accessToken: token,
      refreshToken: null,
      expiresAt: null,
      tokenEndpoint: 'http://127.0.0.1:9/oauth/token',
      email: null,
    },
    env,
  )
  const offline = runCli(['logout'], tmpdir(), env)
  assert.equal(offline.status, 0)
  assert.match(offline.stderr, /could not revoke the session on http:\/\/127\.0\.0\.1:9: Cannot reach/)
  assert.match(offline.stdout, /^Signed out: .* is removed\.\n$/)
})
