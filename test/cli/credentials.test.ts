import assert from 'node:assert/strict'
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import {
  configDir,
  credentialsPath,
  deleteSession,
  readSession,
  type StoredSession,
  writeSession,
} from '../../cli/credentials.js'

const session: StoredSession = {
  apiUrl: 'http://localhost:8080',
  accessToken: 'dsa_access',
  refreshToken: 'dsr_refresh',
  expiresAt: '2030-01-01T00:00:00.000Z',
  tokenEndpoint: 'http://localhost:8080/oauth/token',
  email: 'ada@example.com',
}

async function tempEnv(t: { after: (fn: () => Promise<void>) => void }): Promise<NodeJS.ProcessEnv> {
  const dir = await mkdtemp(join(tmpdir(), 'docsctl-credentials-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  return { DOCSCTL_CONFIG_DIR: join(dir, 'nested', 'docsctl') }
}

test('the config folder honours DOCSCTL_CONFIG_DIR, then XDG_CONFIG_HOME, then ~/.config', () => {
  assert.equal(configDir({ DOCSCTL_CONFIG_DIR: '/x/y' }), '/x/y')
  if (process.platform !== 'win32') {
    assert.equal(configDir({ XDG_CONFIG_HOME: '/cfg' }), join('/cfg', 'docsctl'))
    assert.match(configDir({}), /\.config[/\\]docsctl$/)
  }
})

test('a written session reads back, with mode 0600 and no temp file left behind', async (t) => {
  const env = await tempEnv(t)
  assert.equal(await readSession(env), undefined)
  await writeSession(session, env)
  await writeSession({ ...session, accessToken: 'dsa_second' }, env)
  assert.deepEqual(await readSession(env), { ...session, accessToken: 'dsa_second' })
  if (process.platform !== 'win32') assert.equal((await stat(credentialsPath(env))).mode & 0o777, 0o600)
  assert.deepEqual(await readdir(configDir(env)), ['credentials.json'])
})

test('a damaged or foreign credentials file counts as no session', async (t) => {
  const env = await tempEnv(t)
  await writeSession(session, env)
  await writeFile(credentialsPath(env), '{"accessToken": 42')
  assert.equal(await readSession(env), undefined)
  await writeFile(credentialsPath(env), '{"hello": "world"}')
  assert.equal(await readSession(env), undefined)
})

test('deleting answers whether there was a session', async (t) => {
  const env = await tempEnv(t)
  assert.equal(await deleteSession(env), false)
  await writeSession(session, env)
  assert.equal(await deleteSession(env), true)
  assert.equal(await readSession(env), undefined)
})
