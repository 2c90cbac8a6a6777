/**
 * The key GitLab/Gitea webhook secrets derive from is one for all replicas: kept in the database, made
 * once (from a key file an earlier version left, so its webhooks keep working), and a setting wins.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { buildApp } from '../../../server/app.js'
import type { ServerConfig } from '../../../server/config.js'
import { needs } from '../../tier.js'
import { bearer, createProject, signIn, testConfig } from '../helper.js'
import { gitlabPush } from './deliveries.js'

/** Another replica of `config`: the same database, its own data folder. */
async function replicaOf(t: Parameters<typeof testConfig>[0], config: ServerConfig) {
  const dataDir = await mkdtemp(join(tmpdir(), 'docs-replica-'))
  t.after(() => rm(dataDir, { recursive: true, force: true }))
  const app = await buildApp({ ...config, dataDir })
  t.after(() => app.close())
  return app
}

test('a webhook secret one replica shows is the one every other replica checks deliveries with', {
  skip: needs('PostgreSQL'),
}, async (t) => {
  const config = await testConfig(t, 'postgres')
  const [a, b] = [await replicaOf(t, config), await replicaOf(t, config)]
  assert.equal(a.gitWebhookKey, b.gitWebhookKey)
  const token = await signIn(a)
  const project = await createProject(a, token, 'handbook')
  const connected = await a.inject({
    method: 'PUT',
    url: `/projects/${project.id}/git`,
    headers: bearer(token),
    payload: { provider: 'gitlab', repositoryUrl: 'https://gitlab.com/acme/handbook.git' },
  })
  assert.equal(connected.statusCode, 200, connected.body)
  const secret = connected.json().connection.webhook.secret as string
  const shownByB = await b.inject({
    method: 'GET',
    url: `/projects/${project.id}/git`,
    headers: bearer(token),
  })
  assert.equal(shownByB.json().connection.webhook.secret, secret)
  // Signed for A, delivered to B: verified (a push of a repository the project does not deploy, so
  // nothing is fetched), where a key per replica answered 401.
  const delivery = gitlabPush(secret, {
    repositoryUrl: 'https://gitlab.com/acme/elsewhere.git',
    branch: 'main',
    before: '1'.repeat(40),
    after: '2'.repeat(40),
  })
  const delivered = await b.inject({
    method: 'POST',
    url: `/webhooks/gitlab/${project.id}`,
    headers: delivery.headers,
    payload: delivery.payload,
  })
  assert.equal(delivered.statusCode, 202, delivered.body)
})

test('the key file an earlier version made in the data dir becomes the shared key; a configured key wins', async (t) => {
  const config = await testConfig(t, 'sqlite')
  const legacy = 'an-earlier-version-made-this-key-0123456789'
  await writeFile(join(config.dataDir, 'git-webhook.key'), `${legacy}\n`, { mode: 0o600 })
  const first = await buildApp(config)
  t.after(() => first.close())
  assert.equal(first.gitWebhookKey, legacy)
  await first.close()
  await rm(join(config.dataDir, 'git-webhook.key'))
  const again = await buildApp(config)
  t.after(() => again.close())
  assert.equal(again.gitWebhookKey, legacy, 'kept in the database, not in the file')
  await again.close()
  const configured = 'a-configured-key-for-every-replica-0123456789'
  const withSetting = await buildApp({ ...config, git: { ...config.git, webhookKey: configured } })
  t.after(() => withSetting.close())
  assert.equal(withSetting.gitWebhookKey, configured)
})
