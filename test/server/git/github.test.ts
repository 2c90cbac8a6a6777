/**
 * GitHub-connected deploys end to end: a real Git server on loopback that demands the installation
 * token, GitHub App webhooks with real signatures, a stand-in GitHub API that checks the token flow
 * and the commit status shape, and the live site changing to each pushed commit.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.js'
import { defaultConfig } from '../../../server/config.js'
import { bearer, createProject, signIn, testConfig } from '../helper.js'
import { type Delivery, githubInstallation, githubPush, zeroSha } from './deliveries.js'
import { GitServer } from './git-server.js'
import { GitHubApi } from './github-api.js'

const secret = 'It is a secret to everybody'
const installationId = 77

const docsJson = (name: string, navigation: unknown = { groups: [{ group: 'Start', pages: ['index'] }] }) =>
  JSON.stringify({ name, slug: 'acme', navigation })
const page = (text: string) => `---\ntitle: Home\n---\n\n${text}\n`

const deliver = (app: FastifyInstance, delivery: Delivery) =>
  app.inject({
    method: 'POST',
    url: '/webhooks/github',
    headers: delivery.headers,
    payload: delivery.payload,
  })

const siteText = async (app: FastifyInstance, host: string) => {
  const response = await app.inject({ method: 'GET', url: '/', headers: { host } })
  return { status: response.statusCode, body: response.body }
}

test('pushes to a GitHub repository deploy through the GitHub App', async (t) => {
  const started = performance.now()
  const api = await GitHubApi.start(t)
  const gitServer = await GitServer.start(t)
  // The repository answers only to installation tokens the stand-in GitHub issued.
  const repository = await gitServer.createRepository('acme/docs', {
    acceptsToken: (token, username) =>
      username === 'x-access-token' && [...api.issued.values()].flat().includes(token),
  })
  // GitHub Enterprise's layout: the API at /api/v3 of the host the repositories are cloned from.
  gitServer.proxy('/api/v3', api.url)
  const defaults = defaultConfig()
  const config = await testConfig(t, 'sqlite', {
    git: {
      ...defaults.git,
      maxWebhookBytes: 64 * 1024,
      allowPrivateAddresses: true,
      github: {
        appId: api.appId,
        privateKey: api.privateKey,
        webhookSecret: secret,
        apiUrl: `${gitServer.origin}/api/v3`,
      },
    },
  })
  // Every line the server logs, to check refusals are logged and no token ever is.
  const logLines: string[] = []
  const app = await buildApp(config, {
    logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } },
  })
  t.after(() => app.close())
  const token = await signIn(app)
  const project = await createProject(app, token, 'acme')

  const connect = await app.inject({
    method: 'PUT',
    url: `/projects/${project.id}/git`,
    headers: bearer(token),
    payload: {
      provider: 'github',
      repositoryUrl: repository.url,
      productionBranch: 'main',
      previewBranches: ['feature/*'],
    },
  })
  assert.equal(connect.statusCode, 200, connect.body)
  const settings = connect.json()
  assert.equal(settings.connection.webhook.url.endsWith('/webhooks/github'), true)
  assert.equal(settings.connection.webhook.secret, null)

  // Someone else connects the same repository URL to their project: its docs.json names "acme", so
  // they get no deployment, no delivery and no commit status.
  const intruderToken = await signIn(app, 'mallory@example.com')
  const intruder = await createProject(app, intruderToken, 'intruder')
  const intrusion = await app.inject({
    method: 'PUT',
    url: `/projects/${intruder.id}/git`,
    headers: bearer(intruderToken),
    payload: { provider: 'github', repositoryUrl: `${repository.url}/` },
  })
  assert.equal(intrusion.statusCode, 200, intrusion.body)

  // The App is installed on the repository: the installation is recorded on the connection.
  const installed = await deliver(app, githubInstallation(secret, installationId, ['acme/docs']))
  assert.equal(installed.statusCode, 202, installed.body)
  const afterInstall = await app.inject({ url: `/projects/${project.id}/git`, headers: bearer(token) })
  assert.equal(afterInstall.json().connection.githubInstallationId, String(installationId))

  // First push to main: the live site shows it.
  const first = await repository.commit(
    'main',
    { 'docs.json': docsJson('Acme'), 'index.mdx': page('Version one of the docs.') },
    'Add the docs',
  )
  const firstDelivery = githubPush(
    secret,
    { repositoryUrl: repository.url, branch: 'main', before: zeroSha, after: first, message: 'Add the docs' },
    { installationId },
  )
  const accepted = await deliver(app, firstDelivery)
  assert.equal(accepted.statusCode, 202, accepted.body)
  await app.gitDeployer.idle()
  let live = await siteText(app, 'acme.localhost:8080')
  assert.equal(live.status, 200, JSON.stringify(await app.repos.git.recentDeliveries(project.id, 5)))
  assert.match(live.body, /Version one of the docs/)

  const list = await app.inject({ url: `/projects/slug/acme/deployments`, headers: bearer(token) })
  const [deployment] = list.json().deployments
  assert.equal(deployment.branch, 'main')
  assert.equal(deployment.commitSha, first)
  assert.equal(deployment.commitAuthor, 'Ada Lovelace <ada@example.com>')
  assert.equal(deployment.commitMessage, 'Add the docs')
  assert.equal(deployment.live, true)

  const intruderView = await app.inject({
    url: `/projects/${intruder.id}/git`,
    headers: bearer(intruderToken),
  })
  assert.deepEqual(intruderView.json().deliveries, [])
  const intruderDeployments = await app.inject({
    url: '/projects/slug/intruder/deployments',
    headers: bearer(intruderToken),
  })
  assert.deepEqual(intruderDeployments.json().deployments, [])

  // The token flow and the commit statuses, as GitHub documents them.
  assert.deepEqual(api.problems, [])
  assert.ok((api.issued.get(String(installationId)) ?? []).length >= 1, 'an installation token was asked for')
  const firstStatuses = api.statuses.filter((status) => status.sha === first)
  assert.deepEqual(
    firstStatuses.map((status) => status.state),
    ['pending', 'success'],
  )
  assert.equal(firstStatuses[1]?.target_url, 'http://acme.localhost:8080/')
  assert.equal(firstStatuses[1]?.context, 'docs/acme')

  // Every fetch carried the token in a header, never in the URL.
  const fetches = gitServer.requests.filter((request) => request.url.includes('acme/docs.git'))
  assert.ok(fetches.length > 0, JSON.stringify(gitServer.requests))
  assert.ok(fetches.every((request) => !request.url.includes('ghs_')))
  assert.ok(fetches.some((request) => request.authorization?.startsWith('Basic ')))

  // A redelivery of the same delivery id is refused and deploys nothing.
  const replay = await deliver(app, firstDelivery)
  assert.equal(replay.statusCode, 401, replay.body)
  assert.match(replay.json().error, /already received/)

  // Wrong signature, no signature, oversized: refused, nothing queued.
  const forged = githubPush('not the secret', {
    repositoryUrl: repository.url,
    branch: 'main',
    before: first,
    after: first,
  })
  assert.equal((await deliver(app, forged)).statusCode, 401)
  const unsigned = githubPush(secret, {
    repositoryUrl: repository.url,
    branch: 'main',
    before: first,
    after: first,
  })
  delete unsigned.headers['x-hub-signature-256']
  assert.equal((await deliver(app, unsigned)).statusCode, 401)
  const tampered = githubPush(secret, {
    repositoryUrl: repository.url,
    branch: 'main',
    before: first,
    after: first,
  })
  tampered.payload = tampered.payload.replace('"main"', '"evil"')
  assert.equal((await deliver(app, tampered)).statusCode, 401)
  const oversized = githubPush(secret, {
    repositoryUrl: repository.url,
    branch: 'main',
    before: first,
    after: first,
    message: 'x'.repeat(70 * 1024),
  })
  assert.equal((await deliver(app, oversized)).statusCode, 413)
  const deliveriesAfterRefusals = await app.repos.git.recentDeliveries(project.id, 50)
  assert.equal(deliveriesAfterRefusals.length, 1)
  const refusals = logLines.filter((line) => line.includes('webhook delivery refused'))
  assert.equal(
    refusals.length,
    5,
    'the replay, forged, unsigned, tampered and oversized deliveries are logged',
  )

  // Second push: the live site changes; the unchanged docs.json is not stored again.
  const second = await repository.commit(
    'main',
    { 'index.mdx': page('Version two of the docs.') },
    'Rewrite the home page',
  )
  await deliver(
    app,
    githubPush(
      secret,
      { repositoryUrl: repository.url, branch: 'main', before: first, after: second },
      { installationId },
    ),
  )
  await app.gitDeployer.idle()
  live = await siteText(app, 'acme.localhost:8080')
  assert.match(live.body, /Version two of the docs/)

  // A preview branch: its own host, the live site untouched.
  const feature = await repository.commit(
    'feature/new-home',
    { 'index.mdx': page('A preview of the next home page.') },
    'Try a new home page',
  )
  await deliver(
    app,
    githubPush(
      secret,
      { repositoryUrl: repository.url, branch: 'feature/new-home', before: zeroSha, after: feature },
      { installationId },
    ),
  )
  await app.gitDeployer.idle()
  const preview = await siteText(app, 'feature-new-home--acme.localhost:8080')
  assert.equal(preview.status, 200, preview.body)
  assert.match(preview.body, /A preview of the next home page/)
  assert.match((await siteText(app, 'acme.localhost:8080')).body, /Version two of the docs/)
  const featureStatus = api.statuses.filter((status) => status.sha === feature).at(-1)
  assert.equal(featureStatus?.state, 'success')
  assert.equal(featureStatus?.target_url, 'http://feature-new-home--acme.localhost:8080/')

  // A branch matching no pattern deploys nothing.
  const other = await repository.commit('wip', { 'index.mdx': page('Not for anyone.') }, 'WIP')
  await deliver(
    app,
    githubPush(
      secret,
      { repositoryUrl: repository.url, branch: 'wip', before: zeroSha, after: other },
      { installationId },
    ),
  )
  await app.gitDeployer.idle()
  assert.equal((await app.repos.git.recentDeliveries(project.id, 1))[0]?.status, 'skipped')

  // The preview branch is deleted: its host stops answering.
  await repository.deleteBranch('feature/new-home')
  await deliver(
    app,
    githubPush(
      secret,
      { repositoryUrl: repository.url, branch: 'feature/new-home', before: feature, after: zeroSha },
      { installationId },
    ),
  )
  await app.gitDeployer.idle()
  assert.equal((await siteText(app, 'feature-new-home--acme.localhost:8080')).status, 404)

  // A force-push rewriting main: the exact pushed commit goes live.
  const rewritten = await repository.commit(
    'main',
    { 'index.mdx': page('Rewritten history.') },
    'Start over',
    { parent: first, force: true },
  )
  await deliver(
    app,
    githubPush(
      secret,
      { repositoryUrl: repository.url, branch: 'main', before: second, after: rewritten, forced: true },
      { installationId },
    ),
  )
  await app.gitDeployer.idle()
  assert.match((await siteText(app, 'acme.localhost:8080')).body, /Rewritten history/)

  // An invalid docs.json: the deployment fails with diagnostics, the live site stays.
  const broken = await repository.commit('main', { 'docs.json': docsJson('Acme', 5) }, 'Break the config')
  await deliver(
    app,
    githubPush(
      secret,
      { repositoryUrl: repository.url, branch: 'main', before: rewritten, after: broken },
      { installationId },
    ),
  )
  await app.gitDeployer.idle()
  const [failedDelivery] = await app.repos.git.recentDeliveries(project.id, 1)
  assert.equal(failedDelivery?.status, 'failed')
  const failed = await app.inject({
    url: `/projects/slug/acme/deployments/${failedDelivery?.deployment_id}`,
    headers: bearer(token),
  })
  assert.equal(failed.json().status, 'failed')
  assert.ok(failed.json().diagnostics.length > 0)
  assert.equal(failed.json().commitSha, broken)
  assert.match((await siteText(app, 'acme.localhost:8080')).body, /Rewritten history/)
  assert.equal(api.statuses.filter((status) => status.sha === broken).at(-1)?.state, 'failure')

  // No repository credential was written to a deployment or a delivery.
  const rows = JSON.stringify([
    await app.db.selectFrom('deployments').selectAll().execute(),
    await app.db.selectFrom('git_deliveries').selectAll().execute(),
    await app.db.selectFrom('git_connections').selectAll().execute(),
  ])
  const logs = logLines.join('')
  for (const issued of [...api.issued.values()].flat()) {
    assert.equal(rows.includes(issued), false)
    assert.equal(logs.includes(issued), false)
    assert.equal(logs.includes(Buffer.from(`x-access-token:${issued}`).toString('base64')), false)
  }
  assert.deepEqual([...new Set(api.statuses.map((status) => status.context))], ['docs/acme'])
  assert.deepEqual(api.problems, [])
  t.diagnostic(`GitHub flow: ${Math.round(performance.now() - started)} ms`)
})
