/**
 * Pull request previews with a real Git server on loopback and a stub of Gitea's REST API: a request
 * that edits one page, renames another without a redirect and so breaks links gets a preview at
 * `pr-<n>--<slug>`, a change report listing exactly those, a commit status per commit and one comment
 * updated in place; a second commit replaces the preview; closing removes it; a fork's request is not
 * built unless the project allows it.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import type { ChangeReport } from '../../../cli/api.js'
import { appWithProject, bearer, testConfig } from '../helper.js'
import { liveFiles, previewFiles } from '../previews/sites.js'
import {
  type Delivery,
  giteaPullRequest,
  giteaPush,
  githubInstallation,
  githubPullRequest,
  githubPush,
  gitlabMergeRequest,
  gitlabPush,
  zeroSha,
} from './deliveries.js'
import { GitServer, git } from './git-server.js'
import { GitHubApi } from './github-api.js'
import { RequestApi } from './request-api.js'

const botToken = 'bot-token-0123456789'

const siteStatus = async (app: FastifyInstance, host: string, url = '/') =>
  (await app.inject({ method: 'GET', url, headers: { host } })).statusCode

test('a Gitea pull request gets a preview and a change report, updated per commit, removed on close', async (t) => {
  const gitServer = await GitServer.start(t)
  const forge = await RequestApi.start(t, botToken)
  const repository = await gitServer.createRepository('acme/handbook', {
    acceptsToken: (token) => token === botToken,
  })
  gitServer.proxy('/api/v1', `${forge.url}/api/v1`)
  const defaults = (await testConfig(t, 'sqlite')).git
  const { app, token, project } = await appWithProject(t, 'handbook', 'sqlite', {
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
    payload: { provider: 'gitea', repositoryUrl: repository.url },
  })
  assert.equal(connected.statusCode, 200, connected.body)
  const { secret, events } = connected.json().connection.webhook
  assert.ok(events.includes('pull_request'))
  assert.equal(connected.json().connection.buildForkRequests, false)
  const deliver = async (delivery: Delivery) => {
    const response = await app.inject({
      method: 'POST',
      url: `/webhooks/gitea/${project.id}`,
      headers: delivery.headers,
      payload: delivery.payload,
    })
    await app.gitDeployer.idle()
    return response
  }
  // What Gitea does when a request is opened or pushed to: its head is kept at refs/pull/<n>/head.
  const updatePullRef = (number: number, sha: string) =>
    git(repository.workTree, 'push', '--quiet', '--force', 'origin', `${sha}:refs/pull/${number}/head`)

  const live = await repository.commit('main', liveFiles({ slug: 'handbook' }), 'Start the handbook')
  const pushed = await deliver(
    giteaPush(secret, { repositoryUrl: repository.url, branch: 'main', before: zeroSha, after: live }),
  )
  assert.equal(pushed.statusCode, 202, pushed.body)
  const liveDeploymentId = (await app.repos.projects.findById(project.id))?.live_deployment_id
  assert.ok(liveDeploymentId)

  const first = await repository.commit(
    'rework-setup',
    previewFiles({ slug: 'handbook' }),
    'Rework setup, rename billing',
    {
      parent: live,
    },
  )
  await updatePullRef(7, first)
  const opened = { repositoryUrl: repository.url, number: 7, headBranch: 'rework-setup' }
  const forged = giteaPullRequest('not-the-secret', { ...opened, action: 'opened', headSha: first })
  assert.equal((await deliver(forged)).statusCode, 401)
  const openedDelivery = giteaPullRequest(secret, { ...opened, action: 'opened', headSha: first })
  assert.equal((await deliver(openedDelivery)).statusCode, 202)
  // The same delivery again is a replay: refused, nothing queued twice.
  assert.equal((await deliver(openedDelivery)).statusCode, 401)

  const firstPreview = await app.repos.git.branchPreview(project.id, 'pr-7')
  assert.ok(firstPreview, 'the request has a preview')
  assert.equal(await siteStatus(app, 'pr-7--handbook.localhost:8080', '/payments/'), 200)
  assert.equal(await siteStatus(app, 'handbook.localhost:8080', '/billing/'), 200, 'live is unchanged')

  const reportResponse = await app.inject({
    url: `/projects/slug/handbook/deployments/${firstPreview}/report`,
    headers: bearer(token),
  })
  assert.equal(reportResponse.statusCode, 200, reportResponse.body)
  const report = reportResponse.json() as ChangeReport
  assert.equal(report.baseDeploymentId, liveDeploymentId)
  assert.deepEqual(
    report.pages.changed.map((page) => page.slug),
    ['setup'],
  )
  assert.deepEqual(
    report.pages.added.map((page) => page.slug),
    ['payments'],
  )
  assert.deepEqual(
    report.pages.removed.map((page) => page.slug),
    ['billing'],
  )
  assert.deepEqual(
    report.missingRedirects.map((page) => [page.slug, page.redirect]),
    [['billing', { source: '/billing', destination: '/payments' }]],
  )
  assert.deepEqual(
    report.links.introduced.map((link) => [link.page, link.target, link.problem]),
    [
      ['index', '/billing/', 'missing-page'],
      ['index', '/setup/#install', 'missing-anchor'],
    ],
  )

  // Per commit: a pending and a final status on the head commit; one comment, made once.
  assert.deepEqual(forge.problems, [])
  const callsOf = (sha: string) => forge.calls.filter((call) => call.kind === 'status' && call.target === sha)
  assert.deepEqual(
    callsOf(first).map((call) => call.body.state),
    ['pending', 'success'],
  )
  assert.equal(callsOf(first)[1]?.body.target_url, 'http://pr-7--handbook.localhost:8080/')
  assert.match(String(callsOf(first)[1]?.body.description), /1 changed, 1 added, 1 removed, 2 broken links/)
  const comments = forge.calls.filter((call) => call.kind.startsWith('comment'))
  assert.deepEqual(
    comments.map((call) => [call.kind, call.target]),
    [['comment-created', '7']],
  )
  const [commentId] = [...forge.comments.keys()]
  assert.ok(commentId)
  assert.match(forge.comments.get(commentId) ?? '', /Removed pages without a redirect/)
  assert.match(forge.comments.get(commentId) ?? '', /Preview of [0-9a-f]{12}/)

  // A second commit replaces the preview and edits the same comment.
  const second = await repository.commit(
    'rework-setup',
    { 'faq.mdx': '---\ntitle: FAQ\n---\n\nQuestions, and their answers.\n' },
    'Reword the FAQ',
  )
  await updatePullRef(7, second)
  assert.equal(
    (await deliver(giteaPullRequest(secret, { ...opened, action: 'synchronized', headSha: second })))
      .statusCode,
    202,
  )
  const secondPreview = await app.repos.git.branchPreview(project.id, 'pr-7')
  assert.ok(secondPreview && secondPreview !== firstPreview, 'the preview is replaced')
  assert.deepEqual(
    callsOf(second).map((call) => call.body.state),
    ['pending', 'success'],
  )
  assert.deepEqual(
    forge.calls.filter((call) => call.kind.startsWith('comment')).map((call) => [call.kind, call.target]),
    [
      ['comment-created', '7'],
      ['comment-updated', commentId],
    ],
  )
  assert.equal(forge.comments.size, 1)
  assert.match(forge.comments.get(commentId) ?? '', /2 changed/)

  // Closing (or merging) removes the preview.
  assert.equal(
    (await deliver(giteaPullRequest(secret, { ...opened, action: 'closed', headSha: second }))).statusCode,
    202,
  )
  assert.equal(await app.repos.git.branchPreview(project.id, 'pr-7'), undefined)
  assert.equal(await siteStatus(app, 'pr-7--handbook.localhost:8080'), 404)

  // A fork's request is not built: the project did not allow it.
  const callsBefore = forge.calls.length
  await updatePullRef(8, first)
  assert.equal(
    (
      await deliver(
        giteaPullRequest(secret, {
          repositoryUrl: repository.url,
          number: 8,
          action: 'opened',
          headBranch: 'main',
          headSha: first,
          fromFork: true,
        }),
      )
    ).statusCode,
    202,
  )
  assert.equal(await app.repos.git.branchPreview(project.id, 'pr-8'), undefined)
  assert.equal(forge.calls.length, callsBefore, 'nothing is said on the forge')
  const deliveries = await app.repos.git.recentDeliveries(project.id, 10)
  assert.match(deliveries[0]?.detail ?? '', /comes from a fork/)
  assert.deepEqual(forge.problems, [])
})

test('a GitHub pull request gets one check run per commit and one comment, both updated in place', async (t) => {
  const api = await GitHubApi.start(t)
  const gitServer = await GitServer.start(t)
  const repository = await gitServer.createRepository('acme/docs', {
    acceptsToken: (token, username) =>
      username === 'x-access-token' && [...api.issued.values()].flat().includes(token),
  })
  gitServer.proxy('/api/v3', api.url)
  const webhookSecret = 'It is a secret to everybody'
  const defaults = (await testConfig(t, 'sqlite')).git
  const { app, token, project } = await appWithProject(t, 'acme', 'sqlite', {
    git: {
      ...defaults,
      allowPrivateAddresses: true,
      github: {
        appId: api.appId,
        privateKey: api.privateKey,
        webhookSecret,
        apiUrl: `${gitServer.origin}/api/v3`,
      },
    },
  })
  const connected = await app.inject({
    method: 'PUT',
    url: `/projects/${project.id}/git`,
    headers: bearer(token),
    payload: { provider: 'github', repositoryUrl: repository.url },
  })
  assert.equal(connected.statusCode, 200, connected.body)
  assert.ok(connected.json().connection.webhook.events.includes('pull_request'))
  const deliver = async (delivery: Delivery) => {
    const response = await app.inject({
      method: 'POST',
      url: '/webhooks/github',
      headers: delivery.headers,
      payload: delivery.payload,
    })
    await app.gitDeployer.idle()
    return response
  }
  assert.equal((await deliver(githubInstallation(webhookSecret, 77, ['acme/docs']))).statusCode, 202)
  const live = await repository.commit('main', liveFiles({ slug: 'acme' }), 'Start')
  await deliver(
    githubPush(webhookSecret, {
      repositoryUrl: repository.url,
      branch: 'main',
      before: zeroSha,
      after: live,
    }),
  )
  assert.ok((await app.repos.projects.findById(project.id))?.live_deployment_id)

  const updatePullRef = (sha: string) =>
    git(repository.workTree, 'push', '--quiet', '--force', 'origin', `${sha}:refs/pull/3/head`)
  const request = { repositoryUrl: repository.url, number: 3, headBranch: 'rework' }
  const first = await repository.commit('rework', previewFiles({ slug: 'acme' }), 'Rework', { parent: live })
  await updatePullRef(first)
  assert.equal(
    (await deliver(githubPullRequest(webhookSecret, { ...request, action: 'opened', headSha: first })))
      .statusCode,
    202,
  )
  assert.deepEqual(api.problems, [])
  assert.deepEqual(
    api.calls.map((call) => [call.kind, call.target]),
    [
      ['check-run-created', first],
      ['check-run-updated', [...api.checkRuns.keys()][0]],
      ['comment-created', '3'],
    ],
  )
  const [checkRun] = [...api.checkRuns.values()]
  assert.equal(checkRun?.name, 'docs/acme')
  assert.equal(checkRun?.status, 'completed')
  assert.equal(checkRun?.conclusion, 'neutral', 'broken links and a missing redirect ask for a look')
  assert.equal(checkRun?.details_url, 'http://pr-3--acme.localhost:8080/')
  const output = checkRun?.output as { title: string; summary: string }
  assert.match(output.title, /1 changed, 1 added, 1 removed, 2 broken links, 1 missing redirect/)
  assert.match(output.summary, /"source":"\/billing","destination":"\/payments"/)
  assert.equal(
    api.statuses.filter((status) => status.sha === first).length,
    0,
    'the check run stands for the status',
  )

  const second = await repository.commit(
    'rework',
    { 'faq.mdx': '---\ntitle: FAQ\n---\n\nReworded.\n' },
    'FAQ',
  )
  await updatePullRef(second)
  await deliver(githubPullRequest(webhookSecret, { ...request, action: 'synchronize', headSha: second }))
  const commentId = [...api.comments.keys()][0]
  assert.deepEqual(
    api.calls.slice(3).map((call) => [call.kind, call.target]),
    [
      ['check-run-created', second],
      ['check-run-updated', [...api.checkRuns.keys()][1]],
      ['comment-updated', commentId],
    ],
  )
  assert.equal(api.comments.size, 1)
  assert.match(api.comments.get(commentId ?? '') ?? '', /2 changed/)

  await deliver(githubPullRequest(webhookSecret, { ...request, action: 'closed', headSha: second }))
  assert.equal(await app.repos.git.branchPreview(project.id, 'pr-3'), undefined)
  assert.equal(api.calls.length, 6, 'closing says nothing more on GitHub')
  assert.deepEqual(api.problems, [])
})

test('a GitLab merge request gets a preview, a status per commit and one note edited in place', async (t) => {
  const gitServer = await GitServer.start(t)
  const forge = await RequestApi.start(t, botToken)
  const repository = await gitServer.createRepository('acme/guide', {
    acceptsToken: (token, username) => username === 'oauth2' && token === botToken,
  })
  gitServer.proxy('/api/v4', `${forge.url}/api/v4`)
  const defaults = (await testConfig(t, 'sqlite')).git
  const { app, token, project } = await appWithProject(t, 'guide', 'sqlite', {
    git: {
      ...defaults,
      allowPrivateAddresses: true,
      gitlab: { token: botToken, apiUrl: `${gitServer.origin}/api/v4` },
    },
  })
  const connected = await app.inject({
    method: 'PUT',
    url: `/projects/${project.id}/git`,
    headers: bearer(token),
    payload: { provider: 'gitlab', repositoryUrl: repository.url },
  })
  assert.equal(connected.statusCode, 200, connected.body)
  const { secret, events } = connected.json().connection.webhook
  assert.ok(events.includes('Merge request events'))
  const deliver = async (delivery: Delivery) => {
    const response = await app.inject({
      method: 'POST',
      url: `/webhooks/gitlab/${project.id}`,
      headers: delivery.headers,
      payload: delivery.payload,
    })
    await app.gitDeployer.idle()
    return response
  }
  const live = await repository.commit('main', liveFiles({ slug: 'guide' }), 'Start')
  await deliver(
    gitlabPush(secret, { repositoryUrl: repository.url, branch: 'main', before: zeroSha, after: live }),
  )
  const afterPush = forge.calls.length
  // GitLab keeps a merge request's head at refs/merge-requests/<iid>/head.
  const updateRef = (sha: string) =>
    git(repository.workTree, 'push', '--quiet', '--force', 'origin', `${sha}:refs/merge-requests/4/head`)
  const request = { repositoryUrl: repository.url, number: 4, headBranch: 'rework' }
  const first = await repository.commit('rework', previewFiles({ slug: 'guide' }), 'Rework', { parent: live })
  await updateRef(first)
  assert.equal(
    (await deliver(gitlabMergeRequest(secret, { ...request, action: 'open', headSha: first }))).statusCode,
    202,
  )
  assert.ok(await app.repos.git.branchPreview(project.id, 'pr-4'))
  // An update that brings no commit (a title edit) builds nothing.
  const retitled = await deliver(gitlabMergeRequest(secret, { ...request, action: 'update', headSha: first }))
  assert.equal(retitled.json().queued, 0)

  const second = await repository.commit(
    'rework',
    { 'faq.mdx': '---\ntitle: FAQ\n---\n\nReworded.\n' },
    'FAQ',
  )
  await updateRef(second)
  await deliver(gitlabMergeRequest(secret, { ...request, action: 'update', headSha: second, oldrev: first }))
  assert.deepEqual(forge.problems, [])
  assert.deepEqual(
    forge.calls
      .slice(afterPush)
      .map((call) => [call.kind, call.kind === 'status' ? call.body.state : call.target]),
    [
      ['status', 'running'],
      ['comment-created', '4'],
      ['status', 'success'],
      ['status', 'running'],
      ['comment-updated', [...forge.comments.keys()][0]],
      ['status', 'success'],
    ],
  )
  assert.equal(forge.comments.size, 1)
  assert.match([...forge.comments.values()][0] ?? '', /Changes against live/)

  await deliver(gitlabMergeRequest(secret, { ...request, action: 'merge', headSha: second }))
  assert.equal(await app.repos.git.branchPreview(project.id, 'pr-4'), undefined)
})
