import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { detectGitContext } from '../../../cli/push/git-context.js'

async function repo(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docsctl-git-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=CI', ...args], {
      cwd: dir,
      stdio: 'pipe',
    })
  git('init', '-q', '-b', 'feature/search')
  await writeFile(join(dir, 'docs.json'), '{}')
  git('add', '.')
  git('commit', '-q', '-m', 'Explain search filters')
  return dir
}

// A clean environment: the test runner itself may run in CI.
const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }

test('outside CI, branch and message come from git', async (t) => {
  const dir = await repo(t)
  const context = await detectGitContext({ cwd: dir, env: base })
  assert.deepEqual(context, {
    branch: 'feature/search',
    commitMessage: 'Explain search filters',
    isCi: false,
    ciService: undefined,
  })
})

test('flags beat DOCSCTL_BRANCH and DOCSCTL_COMMIT_MESSAGE, which beat git', async (t) => {
  const dir = await repo(t)
  const env = { ...base, DOCSCTL_BRANCH: 'from-env', DOCSCTL_COMMIT_MESSAGE: 'env message' }
  const fromEnv = await detectGitContext({ cwd: dir, env })
  assert.equal(fromEnv.branch, 'from-env')
  assert.equal(fromEnv.commitMessage, 'env message')
  const fromFlags = await detectGitContext({ cwd: dir, env, branch: 'flag', message: 'flag message' })
  assert.equal(fromFlags.branch, 'flag')
  assert.equal(fromFlags.commitMessage, 'flag message')
})

test('in CI, the provider ref names the branch', async (t) => {
  const dir = await repo(t)
  const providers: [string, NodeJS.ProcessEnv][] = [
    ['github', { GITHUB_ACTIONS: 'true', GITHUB_REF: 'refs/heads/release-2', GITHUB_EVENT_NAME: 'push' }],
    ['gitlab', { GITLAB_CI: 'true', CI_COMMIT_REF_NAME: 'release-2' }],
    ['circleci', { CIRCLECI: 'true', CIRCLE_BRANCH: 'release-2' }],
    ['bitbucket', { BITBUCKET_BUILD_NUMBER: '7', BITBUCKET_BRANCH: 'release-2' }],
    ['buildkite', { BUILDKITE: 'true', BUILDKITE_BRANCH: 'release-2' }],
    ['jenkins', { JENKINS_URL: 'http://ci', BUILD_NUMBER: '3', GIT_BRANCH: 'release-2' }],
  ]
  for (const [service, env] of providers) {
    const context = await detectGitContext({ cwd: dir, env: { ...base, ...env } })
    assert.equal(context.isCi, true, service)
    assert.equal(context.ciService, service)
    assert.equal(context.branch, 'release-2', service)
  }
})

test('no git and no CI: branch main, no message', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'docsctl-nogit-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  const context = await detectGitContext({ cwd: dir, env: { ...base, GIT_CEILING_DIRECTORIES: tmpdir() } })
  assert.equal(context.branch, 'main')
  assert.equal(context.commitMessage, undefined)
})
