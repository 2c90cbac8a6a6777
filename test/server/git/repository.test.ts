import assert from 'node:assert/strict'
import { test } from 'node:test'
import { projectClaim } from '../../../server/git/deployer.js'
import {
  branchProblem,
  branchSlug,
  docsDirectoryIssues,
  matchesBranchPattern,
  normaliseRepositoryUrl,
  repositoryFullName,
  repositoryUrlProblem,
} from '../../../server/git/repository.js'

test('clone URLs: http(s) only, never with credentials; one spelling per repository', () => {
  assert.equal(repositoryUrlProblem('https://github.com/acme/docs.git'), undefined)
  assert.match(repositoryUrlProblem('git@github.com:acme/docs.git') ?? '', /not a URL/)
  assert.match(repositoryUrlProblem('file:///etc/passwd') ?? '', /http\(s\)/)
  assert.match(repositoryUrlProblem('ext::sh -c id') ?? '', /not a URL|http/)
  assert.match(repositoryUrlProblem('https://ada:secret@github.com/acme/docs.git') ?? '', /credentials/)
  assert.match(repositoryUrlProblem('https://github.com/') ?? '', /name a repository/)
  assert.equal(
    normaliseRepositoryUrl('https://GitHub.com/acme/docs.git/'),
    normaliseRepositoryUrl('https://github.com/acme/docs'),
  )
  assert.equal(repositoryFullName('https://github.com/acme/docs.git'), 'acme/docs')
})

test('branch names, preview patterns and preview host labels', () => {
  assert.equal(branchProblem('feature/new-home'), undefined)
  for (const bad of ['', 'a..b', 'a b', '-x', 'x.lock', 'a//b', 'x\u0001'])
    assert.ok(branchProblem(bad), JSON.stringify(bad))
  assert.equal(matchesBranchPattern('feature/*', 'feature/new-home'), true)
  assert.equal(matchesBranchPattern('feature/*', 'feature/a/b'), false)
  assert.equal(matchesBranchPattern('docs/**', 'docs/a/b'), true)
  assert.equal(matchesBranchPattern('release-1.*', 'release-1x2'), false)
  assert.equal(branchSlug('Feature/New_Home'), 'feature-new-home')
  assert.equal(branchSlug('a--b'), 'a-b', 'never `--`, which splits the label from the slug')
  assert.equal(branchSlug('////'), 'branch')
  assert.ok(branchSlug('x'.repeat(300)).length <= 40)
  assert.deepEqual(docsDirectoryIssues('apps/docs'), [])
  assert.equal(docsDirectoryIssues('../elsewhere').length, 1)
  assert.equal(docsDirectoryIssues('/etc').length, 1)
})

test("a repository's docs.json says which project it deploys to", () => {
  const named = JSON.stringify({ name: 'Acme', slug: 'acme' })
  assert.equal(projectClaim(named, 'acme', true), 'this project')
  assert.equal(projectClaim(named, 'other', false), 'another project')
  const unnamed = JSON.stringify({ name: 'Acme' })
  assert.equal(projectClaim(unnamed, 'acme', false), 'this project', 'a public repository need not name it')
  assert.equal(projectClaim(unnamed, 'acme', true), 'unnamed', 'one read with credentials must')
  assert.equal(projectClaim('{ "name": ', 'acme', true), 'unnamed')
  assert.equal(projectClaim(undefined, 'acme', true), 'unnamed', 'no docs.json (or one too large to read)')
})
