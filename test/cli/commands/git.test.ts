/**
 * `docsctl git connect|status|disconnect` as a user runs them, against a real `docs-server`: the
 * webhook to configure is printed, a missing provider or a host the server is not set up for gets a
 * message saying what to fix (the server's checks of the input are pinned in
 * test/server/routes/git.test.ts), disconnecting is seen.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { guessProvider } from '../../../cli/commands/git/connect.js'
import { writeSession } from '../../../cli/credentials.js'
import { needs } from '../../tier.js'
import { cleanEnv, runCli, startDocsServer } from '../helpers/docs-server.js'

test('the provider is guessed for the well-known hosts only', () => {
  assert.equal(guessProvider('https://github.com/acme/docs.git'), 'github')
  assert.equal(guessProvider('https://gitlab.com/acme/docs'), 'gitlab')
  assert.equal(guessProvider('https://codeberg.org/acme/docs.git'), 'gitea')
  assert.equal(guessProvider('https://git.acme.dev/acme/docs.git'), undefined)
  assert.equal(guessProvider('not a url'), undefined)
})

test('git connect, status and disconnect', { skip: needs('a built binary') }, async (t) => {
  // The server is set up for the Gitea server at git.acme.dev: repositories elsewhere are refused.
  const server = await startDocsServer(['--gitea-api-url', 'https://git.acme.dev/api/v1'])
  const work = await mkdtemp(join(tmpdir(), 'docsctl-git-'))
  t.after(async () => {
    await server.stop()
    await rm(work, { recursive: true, force: true })
  })
  const env = cleanEnv({ DOCSCTL_CONFIG_DIR: join(work, 'config'), DOCSCTL_API_URL: server.apiUrl })
  const token = await server.tokenFor('ada@example.com')
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
  const created = await fetch(`${server.apiUrl}/projects/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Acme Docs', slug: 'acme-docs' }),
  })
  assert.equal(created.status, 201, await created.text())
  const flags = ['--project', 'acme-docs']

  const unknownHost = await runCli(['git', 'connect', 'https://git.acme.dev/acme/docs.git', ...flags], {
    env,
    cwd: work,
  })
  assert.equal(unknownHost.code, 1)
  assert.match(
    unknownHost.stdout + unknownHost.stderr,
    /--provider github, --provider gitlab or --provider gitea/,
  )

  const elsewhere = await runCli(
    ['git', 'connect', 'https://git.mallory.dev/acme/docs.git', '--provider', 'gitea', ...flags],
    { env, cwd: work },
  )
  assert.equal(elsewhere.code, 1)
  assert.match(
    elsewhere.stdout + elsewhere.stderr,
    /repositoryUrl: must be on https:\/\/git\.acme\.dev, the Gitea\/Forgejo server this server is set up for; a server administrator can allow other hosts with --git-allow-hosts/,
  )

  const connect = await runCli(
    [
      'git',
      'connect',
      'https://git.acme.dev/acme/docs.git',
      '--provider',
      'gitea',
      '--docs-dir',
      'docs',
      '--preview',
      'docs/**',
      ...flags,
    ],
    { env, cwd: work },
  )
  assert.equal(connect.code, 0, connect.stderr)
  assert.match(connect.stdout, /Connected: acme-docs deploys from https:\/\/git\.acme\.dev\/acme\/docs\.git/)
  assert.match(connect.stdout, /webhook URL: http:\/\/localhost:\d+\/webhooks\/gitea\/prj_/)
  assert.match(connect.stdout, /secret: +whsec_/)

  const status = await runCli(['git', 'status', '--json', ...flags], { env, cwd: work })
  assert.equal(status.code, 0, status.stderr)
  const settings = JSON.parse(status.stdout)
  assert.equal(settings.connection.docsDirectory, 'docs')
  assert.deepEqual(settings.connection.previewBranches, ['docs/**'])

  const disconnect = await runCli(['git', 'disconnect', ...flags], { env, cwd: work })
  assert.equal(disconnect.code, 0, disconnect.stderr)
  const after = await runCli(['git', 'status', ...flags], { env, cwd: work })
  assert.match(after.stdout, /acme-docs is not connected to a Git repository/)
})
