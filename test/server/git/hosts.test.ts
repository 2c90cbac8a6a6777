/**
 * A provider's token reads every repository its bot can, so it goes to that provider's own origin and
 * nowhere else: a connection to another host is refused unless the server allows that host, which is
 * then read without the token, and a redirect is never followed.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { defaultConfig } from '../../../server/config.js'
import { fetchFailedDetail } from '../../../server/git/fetch-commit.js'
import { hostAccess, providerOrigin } from '../../../server/git/hosts.js'
import { GitServer } from './git-server.js'
import { botToken, docsJson, gitlabWorld, page } from './world.js'

test("a provider's repositories are on the origin its API address names", () => {
  const git = defaultConfig().git
  assert.equal(providerOrigin('github', git), 'https://github.com')
  assert.equal(providerOrigin('gitlab', git), 'https://gitlab.com')
  assert.equal(providerOrigin('gitea', git), undefined, 'no Gitea server unless one is set up')
  const enterprise = {
    ...git,
    github: { ...git.github, apiUrl: 'https://ghe.acme.dev/api/v3' },
    gitea: { token: undefined, apiUrl: 'https://git.acme.dev:8443/api/v1' },
  }
  assert.equal(providerOrigin('github', enterprise), 'https://ghe.acme.dev')
  assert.equal(providerOrigin('gitea', enterprise), 'https://git.acme.dev:8443')

  assert.deepEqual(hostAccess('https://gitlab.com/acme/docs.git', 'gitlab', git), {
    ok: true,
    providerHost: true,
  })
  for (const [url, provider] of [
    ['https://gitlab.com:8443/acme/docs.git', 'gitlab'],
    ['http://gitlab.com/acme/docs.git', 'gitlab'],
    ['https://gitlab.com.evil.dev/acme/docs.git', 'gitlab'],
    ['https://github.com/acme/docs.git', 'gitlab'],
    ['https://git.acme.dev/acme/docs.git', 'gitea'],
  ] as const) {
    const access = hostAccess(url, provider, git)
    assert.equal(access.ok, false, url)
    assert.match(access.ok ? '' : access.problem, /--git-allow-hosts/)
  }
  const allowing = { ...git, allowHosts: ['git.acme.dev', 'mirror.acme.dev:8443'] }
  assert.deepEqual(hostAccess('https://git.acme.dev/acme/docs.git', 'gitea', allowing), {
    ok: true,
    providerHost: false,
  })
  assert.equal(hostAccess('https://mirror.acme.dev:8443/a/b.git', 'gitlab', allowing).ok, true)
  assert.equal(hostAccess('https://mirror.acme.dev/a/b.git', 'gitlab', allowing).ok, false)
  assert.deepEqual(hostAccess('https://gitlab.com/acme/docs.git', 'gitlab', { ...git, allowHosts: ['*'] }), {
    ok: true,
    providerHost: true,
  })
})

test('a connection to a host that is not a configured provider is refused with its issue', async (t) => {
  const world = await gitlabWorld(t, { allowPrivateAddresses: true })
  const elsewhere = await GitServer.start(t)
  for (const provider of ['gitlab', 'gitea', 'github']) {
    const refused = await world.connect({ provider, repositoryUrl: `${elsewhere.origin}/mallory/docs.git` })
    assert.equal(refused.statusCode, 400, refused.body)
    assert.equal(refused.json().error, 'Invalid Git connection')
    // This server has no GitHub App: a GitHub connection is refused for that too, first.
    const hostIssue = refused
      .json()
      .issues.find((issue: { path: string }) => issue.path === 'body/repositoryUrl')
    assert.deepEqual(
      refused.json().issues.map((issue: { path: string }) => issue.path),
      provider === 'github' ? ['body/provider', 'body/repositoryUrl'] : ['body/repositoryUrl'],
    )
    assert.match(hostIssue.message, /--git-allow-hosts/)
  }
  const ours = await world.connect({ repositoryUrl: `${world.gitlab.origin}/acme/docs.git` })
  assert.equal(ours.statusCode, 200, ours.body)
})

test('the bot token goes to the GitLab host only: never to an allowed other host, never through a redirect', async (t) => {
  const elsewhere = await GitServer.start(t)
  const world = await gitlabWorld(t, {
    allowPrivateAddresses: true,
    allowHosts: [new URL(elsewhere.origin).host],
  })
  // Mallory's own public repository on a host the server allows.
  const mallory = await elsewhere.createRepository('mallory/docs')
  const sha = await mallory.commit(
    'main',
    { 'docs.json': docsJson('acme'), 'index.mdx': page('Public docs from elsewhere.') },
    'Start',
  )
  assert.equal((await world.connect({ repositoryUrl: mallory.url })).statusCode, 200)
  assert.equal((await world.push(mallory.url, 'main', sha)).statusCode, 202)
  assert.equal((await world.settle()).status, 'deployed')
  assert.match((await world.site()).body, /Public docs from elsewhere/)
  assert.ok(elsewhere.requests.length > 0)
  assert.deepEqual(
    elsewhere.requests.filter((request) => request.authorization !== undefined),
    [],
    'no credentials reached the other host',
  )
  assert.deepEqual(world.forge.statuses, [], 'no status is reported on GitLab for a repository elsewhere')

  // A repository on the GitLab host that redirects to the other host: the redirect is not followed.
  world.gitlab.redirect('/acme/moved.git', `${elsewhere.origin}/mallory/docs.git`)
  const seen = elsewhere.requests.length
  const moved = `${world.gitlab.origin}/acme/moved.git`
  assert.equal((await world.connect({ repositoryUrl: moved })).statusCode, 200)
  const second = await mallory.commit('main', { 'index.mdx': page('Moved.') }, 'Move')
  assert.equal((await world.push(moved, 'main', second)).statusCode, 202)
  const delivery = await world.settle()
  assert.equal(delivery.status, 'failed')
  assert.equal(delivery.detail, fetchFailedDetail)
  assert.equal(elsewhere.requests.length, seen, 'nothing was sent to where the redirect points')
  assert.ok(
    world.gitlab.requests.some(
      (request) => request.url.startsWith('/acme/moved.git') && request.authorization !== undefined,
    ),
    'the GitLab host itself got the token',
  )
  assert.equal(world.logLines.join('').includes(botToken), false)
})
