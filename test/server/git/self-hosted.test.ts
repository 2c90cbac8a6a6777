/**
 * Self-hosted Git servers: GitLab (secret token) and Gitea/Forgejo (HMAC) webhooks delivered over a
 * real socket to a real Git server's pushes; a push while the docs server is down is delivered again
 * later and deployed once; a delivery a crash left running is run again after a restart; the newest
 * commit of a branch wins when pushes pile up.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.js'
import {
  appWithProject,
  bearer,
  createProject,
  type Engine,
  engines,
  signIn,
  testApp,
  testConfig,
} from '../helper.js'
import { type Delivery, giteaDeleteBranch, giteaPush, gitlabPush, zeroSha } from './deliveries.js'
import { ForgeApi } from './forge-api.js'
import { GitServer } from './git-server.js'

/** Read with the server's bot token, a repository's docs.json must name the project it deploys to. */
const docsJson = (slug: string) =>
  JSON.stringify({ name: 'Acme', slug, navigation: { groups: [{ group: 'Start', pages: ['index'] }] } })
const botToken = 'bot-token-0123456789'
const page = (text: string) => `---\ntitle: Home\n---\n\n${text}\n`

const siteBody = async (app: FastifyInstance, host: string) => {
  const response = await app.inject({ method: 'GET', url: '/', headers: { host } })
  return { status: response.statusCode, body: response.body }
}

const post = (url: string, delivery: Delivery) =>
  fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.payload })

test('GitLab pushes deploy, a push sent while the server is down deploys once when redelivered', async (t) => {
  const started = performance.now()
  const gitServer = await GitServer.start(t)
  const forge = await ForgeApi.start(t, botToken)
  // A private repository, read by the server's GitLab bot account.
  const repository = await gitServer.createRepository('acme/handbook', {
    acceptsToken: (token, username) => username === 'oauth2' && token === botToken,
  })
  // GitLab's layout: the API at /api/v4 of the host the repositories are cloned from.
  gitServer.proxy('/api/v4', `${forge.url}/api/v4`)
  const base = await testConfig(t, 'sqlite')
  const config = {
    ...base,
    git: {
      ...base.git,
      allowPrivateAddresses: true,
      gitlab: { token: botToken, apiUrl: `${gitServer.origin}/api/v4` },
    },
  }
  let app = await buildApp(config)
  t.after(() => app.close())
  const token = await signIn(app)
  const project = await createProject(app, token, 'handbook')
  const connected = await app.inject({
    method: 'PUT',
    url: `/projects/${project.id}/git`,
    headers: bearer(token),
    payload: { provider: 'gitlab', repositoryUrl: repository.url },
  })
  assert.equal(connected.statusCode, 200, connected.body)
  const { webhook } = connected.json().connection
  assert.match(webhook.url, new RegExp(`/webhooks/gitlab/${project.id}$`))
  assert.match(webhook.secret, /^whsec_/)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  const hook = `http://127.0.0.1:${port}/webhooks/gitlab/${project.id}`

  const first = await repository.commit(
    'main',
    { 'docs.json': docsJson('handbook'), 'index.mdx': page('Handbook v1.') },
    'Start',
  )
  const delivered = await post(
    hook,
    gitlabPush(webhook.secret, {
      repositoryUrl: repository.url,
      branch: 'main',
      before: zeroSha,
      after: first,
    }),
  )
  assert.equal(delivered.status, 202, await delivered.text())
  await app.gitDeployer.idle()
  assert.match((await siteBody(app, 'handbook.localhost:8080')).body, /Handbook v1\./)
  assert.deepEqual(
    forge.statuses.map(({ repository, state, context, targetUrl }) => ({
      repository,
      state,
      context,
      targetUrl,
    })),
    [
      { repository: 'acme/handbook', state: 'running', context: 'docs/handbook', targetUrl: undefined },
      {
        repository: 'acme/handbook',
        state: 'success',
        context: 'docs/handbook',
        targetUrl: 'http://handbook.localhost:8080/',
      },
    ],
  )
  assert.deepEqual(forge.problems, [])

  // A wrong token is refused.
  const wrong = await post(
    hook,
    gitlabPush('whsec_wrong', { repositoryUrl: repository.url, branch: 'main', before: first, after: first }),
  )
  assert.equal(wrong.status, 401)

  // The server goes down; GitLab's delivery fails and is retried later with the same event UUID.
  await app.close()
  const second = await repository.commit('main', { 'index.mdx': page('Handbook v2.') }, 'Second edition')
  const retried = gitlabPush(webhook.secret, {
    repositoryUrl: repository.url,
    branch: 'main',
    before: first,
    after: second,
  })
  await assert.rejects(post(hook, retried))

  app = await buildApp(config)
  await app.listen({ port, host: '127.0.0.1' })
  assert.equal((await post(hook, retried)).status, 202)
  const again = await post(hook, retried)
  assert.equal(again.status, 401, 'the same delivery is accepted once')
  await app.gitDeployer.idle()
  assert.match((await siteBody(app, 'handbook.localhost:8080')).body, /Handbook v2\./)
  const deployments = await app.db
    .selectFrom('deployments')
    .select('commit_sha')
    .where('commit_sha', '=', second)
    .execute()
  assert.equal(deployments.length, 1)

  // A crash in the middle of a delivery: the next start runs it again from the start.
  await app.close()
  const third = await repository.commit('main', { 'index.mdx': page('Handbook v3.') }, 'Third edition')
  app = await buildApp(config)
  await app.repos.git.enqueue({
    deliveryKey: `gitlab:crash-${third}:${project.id}`,
    projectId: project.id,
    event: 'push',
    branch: 'main',
    commitSha: third,
    commitMessage: 'Third edition',
    commitAuthor: null,
    forced: false,
    githubInstallationId: null,
  })
  await app.db
    .updateTable('git_deliveries')
    .set({ status: 'running' })
    .where('commit_sha', '=', third)
    .execute()
  await app.ready()
  await app.gitDeployer.idle()
  assert.match((await siteBody(app, 'handbook.localhost:8080')).body, /Handbook v3\./)
  t.diagnostic(`GitLab flow with two restarts: ${Math.round(performance.now() - started)} ms`)
})

test('Gitea and Forgejo pushes deploy from docs/, preview branches come and go', async (t) => {
  const started = performance.now()
  const gitServer = await GitServer.start(t)
  const forge = await ForgeApi.start(t, botToken)
  const repository = await gitServer.createRepository('acme/monorepo', {
    acceptsToken: (token) => token === botToken,
  })
  gitServer.proxy('/api/v1', `${forge.url}/api/v1`)
  const defaults = (await testConfig(t, 'sqlite')).git
  const { app, token, project } = await appWithProject(t, 'mono', 'sqlite', {
    git: {
      ...defaults,
      allowPrivateAddresses: true,
      gitea: { token: botToken, apiUrl: `${gitServer.origin}/api/v1` },
    },
  })
  const connected = await app.inject({
    method: 'PUT',
    url: `/projects/${project.id}/git`,
    headers: bearer(token),
    payload: { provider: 'gitea', repositoryUrl: repository.url, previewBranches: ['docs/**'] },
  })
  assert.equal(connected.statusCode, 200, connected.body)
  const { secret } = connected.json().connection.webhook
  const deliver = (delivery: Delivery) =>
    app.inject({
      method: 'POST',
      url: `/webhooks/gitea/${project.id}`,
      headers: delivery.headers,
      payload: delivery.payload,
    })

  // docs.json lives in docs/: found the way `docsctl push` finds it.
  const first = await repository.commit(
    'main',
    {
      'README.md': '# Monorepo\n',
      'docs/docs.json': docsJson('mono'),
      'docs/index.mdx': page('From the docs folder.'),
    },
    'Add docs',
  )
  assert.equal(
    (
      await deliver(
        giteaPush(secret, { repositoryUrl: repository.url, branch: 'main', before: zeroSha, after: first }),
      )
    ).statusCode,
    202,
  )
  await app.gitDeployer.idle()
  assert.match((await siteBody(app, 'mono.localhost:8080')).body, /From the docs folder\./)

  const forged = giteaPush('not-the-secret', {
    repositoryUrl: repository.url,
    branch: 'main',
    before: first,
    after: first,
  })
  assert.equal((await deliver(forged)).statusCode, 401)

  // Forgejo's headers, a preview branch matching `docs/**`.
  const branch = 'docs/new/intro'
  const preview = await repository.commit(branch, { 'docs/index.mdx': page('A new intro.') }, 'New intro')
  const pushed = await deliver(
    giteaPush(secret, { repositoryUrl: repository.url, branch, before: zeroSha, after: preview }, 'forgejo'),
  )
  assert.equal(pushed.statusCode, 202, pushed.body)
  await app.gitDeployer.idle()
  const previewSite = await siteBody(app, 'docs-new-intro--mono.localhost:8080')
  assert.equal(previewSite.status, 200, previewSite.body)
  assert.match(previewSite.body, /A new intro\./)
  const previewStatus = forge.statuses.find((status) => status.sha === preview && status.state === 'success')
  assert.equal(previewStatus?.targetUrl, 'http://docs-new-intro--mono.localhost:8080/')
  assert.equal(previewStatus?.repository, 'acme/monorepo')
  assert.deepEqual(forge.problems, [])
  assert.match((await siteBody(app, 'mono.localhost:8080')).body, /From the docs folder\./)

  await repository.deleteBranch(branch)
  assert.equal((await deliver(giteaDeleteBranch(secret, repository.url, branch, 'forgejo'))).statusCode, 202)
  await app.gitDeployer.idle()
  assert.equal((await siteBody(app, 'docs-new-intro--mono.localhost:8080')).status, 404)

  const status = await app.inject({ url: `/projects/${project.id}/git`, headers: bearer(token) })
  assert.deepEqual(
    status.json().deliveries.map((delivery: { status: string }) => delivery.status),
    ['skipped', 'deployed', 'deployed'],
  )
  t.diagnostic(`Gitea flow: ${Math.round(performance.now() - started)} ms`)
})

for (const engine of engines) {
  test(`the newest queued commit of a branch wins (${engine})`, async (t) => {
    // Never made ready, so the queue runner stays off and the test takes every delivery itself.
    const app: FastifyInstance = await testApp(t, engine as Engine)
    const owner = await app.repos.users.findOrCreate('ada@example.com')
    const project = await app.repos.projects.create({
      ownerId: owner.id,
      slug: 'queue',
      name: 'Queue',
      description: null,
    })
    assert.ok(project)
    const push = (sha: string, branch = 'main') => ({
      deliveryKey: `gitea:${sha}:${project.id}`,
      projectId: project.id,
      event: 'push',
      branch,
      commitSha: sha.repeat(40),
      commitMessage: null,
      commitAuthor: null,
      forced: false,
      githubInstallationId: null,
    })
    assert.equal(await app.repos.git.enqueue(push('a')), true)
    assert.equal(await app.repos.git.enqueue(push('b', 'other')), true)
    assert.equal(await app.repos.git.enqueue(push('c')), true)
    assert.equal(await app.repos.git.enqueue(push('c')), false, 'a delivery key is taken once')
    const next = await app.repos.git.takeNext(60_000)
    assert.equal(next?.commit_sha, 'c'.repeat(40))
    // `b` is taken with a lease that has already ended, as if its replica had died.
    assert.equal((await app.repos.git.takeNext(-1000))?.commit_sha, 'b'.repeat(40))
    assert.equal(await app.repos.git.takeNext(60_000), undefined)
    const statuses = (await app.repos.git.recentDeliveries(project.id, 10)).map((row) => [
      row.commit_sha[0],
      row.status,
    ])
    assert.deepEqual(statuses.sort(), [
      ['a', 'superseded'],
      ['b', 'running'],
      ['c', 'running'],
    ])
    // Replicas of one database: only the delivery whose lease ended is run again.
    assert.equal(await app.repos.git.requeueInterrupted({ all: false }), 1)
    assert.equal((await app.repos.git.takeNext(60_000))?.commit_sha, 'b'.repeat(40))
    // A server alone on its database: whatever it left running is run again.
    assert.equal(await app.repos.git.requeueInterrupted({ all: true }), 2)
  })
}
