/** `PUT /projects/:projectId/git`: bad input answers 400 with the issues that say what to fix. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { appWithProject, bearer } from '../helper.js'

test('a Git connection with bad input is refused with its issues', async (t) => {
  const { app, token, project } = await appWithProject(t, 'acme')
  const put = (payload: object) =>
    app.inject({ method: 'PUT', url: `/projects/${project.id}/git`, headers: bearer(token), payload })
  const bad = await put({
    provider: 'gitlab',
    repositoryUrl: 'https://ada:secret@gitlab.com/acme/docs.git',
    productionBranch: 'main..x',
    docsDirectory: '../outside',
    previewBranches: ['ok/*', 'bad branch'],
  })
  assert.equal(bad.statusCode, 400, bad.body)
  assert.deepEqual(
    bad.json().issues.map((issue: { path: string }) => issue.path),
    ['body/repositoryUrl', 'body/productionBranch', 'body/previewBranches/1', 'body/docsDirectory'],
  )
  const unknownProvider = await put({ provider: 'svn', repositoryUrl: 'https://svn.example.com/docs' })
  assert.equal(unknownProvider.statusCode, 400)
  // A repository must be on the host of a provider the server is set up for (GitLab: gitlab.com).
  const elsewhere = await put({ provider: 'gitlab', repositoryUrl: 'https://git.example.com/acme/docs.git' })
  assert.equal(elsewhere.statusCode, 400)
  assert.deepEqual(elsewhere.json().issues, [
    {
      path: 'body/repositoryUrl',
      message:
        'must be on https://gitlab.com, the GitLab server this server is set up for; a server administrator can allow other hosts with --git-allow-hosts',
    },
  ])

  // GitHub on a server without a GitHub App: its pushes would never arrive, so the connection is refused.
  const github = await put({ provider: 'github', repositoryUrl: 'https://github.com/acme/docs' })
  assert.equal(github.statusCode, 400)
  assert.deepEqual(
    github.json().issues.map((issue: { path: string }) => issue.path),
    ['body/provider'],
  )
  assert.match(
    github.json().issues[0].message,
    /no GitHub App set up.*--github-app-id, --github-app-private-key and --github-webhook-secret/,
  )

  const ok = await put({
    provider: 'gitlab',
    repositoryUrl: 'https://gitlab.com/acme/docs.git',
    docsDirectory: 'docs/',
  })
  assert.equal(ok.statusCode, 200, ok.body)
  assert.equal(ok.json().connection.docsDirectory, 'docs')
  assert.equal(ok.json().connection.productionBranch, 'main')
  // The secret is the project's own and the same on every read.
  const again = await app.inject({ url: `/projects/${project.id}/git`, headers: bearer(token) })
  assert.equal(again.json().connection.webhook.secret, ok.json().connection.webhook.secret)
})
