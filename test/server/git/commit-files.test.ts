/**
 * A pushed commit is read from Git's objects, within limits checked before any file is read, and only
 * its docs folder's own files are published: a file over --max-file-bytes fails the delivery without
 * being read (a 128 MB file of zeros is a pack of a few hundred KB), and a symlink never publishes
 * what lies outside the docs folder.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { defaultConfig } from '../../../server/config.js'
import { docsJson, gitlabWorld, page } from './world.js'

/** Every path any deployment of the project lists. */
const deployedPaths = async (app: FastifyInstance, projectId: string): Promise<string[]> =>
  (
    await app.db
      .selectFrom('deployment_files')
      .innerJoin('deployments', 'deployments.id', 'deployment_files.deployment_id')
      .select('deployment_files.path')
      .where('deployments.project_id', '=', projectId)
      .execute()
  ).map((row) => row.path)

// First in its file, so this process's peak memory so far is about what it holds now.
test('a file over --max-file-bytes fails the delivery and is never read', async (t) => {
  const big = 128 * 1024 * 1024
  const world = await gitlabWorld(t, { allowPrivateAddresses: true }, { maxFileBytes: 1024 * 1024 })
  const repository = await world.gitlab.createRepository('acme/docs')
  const sha = await repository.commit(
    'main',
    {
      'docs.json': docsJson('acme'),
      'index.mdx': page('Docs.'),
      'public/video.bin': { zeroBytes: big },
    },
    'Add a large file',
  )
  assert.equal((await world.connect({ repositoryUrl: repository.url })).statusCode, 200)
  const peakBefore = process.resourceUsage().maxRSS * 1024
  assert.equal((await world.push(repository.url, 'main', sha)).statusCode, 202)
  const delivery = await world.settle()
  const peakGrowth = process.resourceUsage().maxRSS * 1024 - peakBefore
  t.diagnostic(`peak RSS grew by ${Math.round(peakGrowth / 1024 / 1024)} MB`)
  assert.equal(delivery.status, 'failed')
  assert.equal(
    delivery.detail,
    `public/video.bin is ${big} bytes, larger than the 1048576-byte limit of a file (--max-file-bytes); it was not read`,
  )
  assert.ok(peakGrowth < 64 * 1024 * 1024, `the server's peak memory grew by ${peakGrowth} bytes`)
  assert.deepEqual(await deployedPaths(world.app, world.project.id), [])
})

test('the docs folder is bounded in entries, files and bytes before anything is read', async (t) => {
  const world = await gitlabWorld(
    t,
    { allowPrivateAddresses: true, maxTreeEntries: 4 },
    { maxFilesPerDeployment: 3, quotas: { ...defaultConfig().quotas, maxDeploymentBytes: 1024 * 1024 } },
  )
  const repository = await world.gitlab.createRepository('acme/docs')
  assert.equal((await world.connect({ repositoryUrl: repository.url })).statusCode, 200)
  const deliver = async (files: Parameters<typeof repository.commit>[1]) => {
    const sha = await repository.commit('main', files, 'Change')
    assert.equal((await world.push(repository.url, 'main', sha)).statusCode, 202)
    return world.settle()
  }
  const start = { 'docs.json': docsJson('acme'), 'index.mdx': page('Docs.') }
  const tooMany = await deliver({ ...start, 'a.txt': 'a', '.hidden/b.txt': 'b', 'node_modules/c.js': 'c' })
  assert.equal(tooMany.status, 'failed')
  assert.equal(tooMany.detail, 'The docs folder lists more than 4 entries (--git-max-tree-entries)')
  const tooManyFiles = await deliver({ '.hidden/b.txt': null, 'node_modules/c.js': null, 'd.txt': 'd' })
  assert.equal(tooManyFiles.status, 'failed')
  assert.equal(tooManyFiles.detail, 'The docs folder holds 4 files; a deployment holds at most 3')
  // A refusal is the commit's to fix: a failed status that says why, not "could not run".
  const refusedStatus = world.forge.statuses.at(-1)
  assert.deepEqual([refusedStatus?.state, refusedStatus?.description], ['failed', tooManyFiles.detail])
  const tooManyBytes = await deliver({ 'a.txt': null, 'd.txt': { zeroBytes: 1100 * 1024 } })
  assert.equal(tooManyBytes.status, 'failed')
  assert.match(tooManyBytes.detail ?? '', /at most 1048576 bytes/)
  assert.deepEqual(await deployedPaths(world.app, world.project.id), [])
  const fits = await deliver({ 'd.txt': 'd' })
  assert.equal(fits.status, 'deployed', fits.detail ?? '')
})

test('a symlink never publishes what lies outside the docs folder', async (t) => {
  const world = await gitlabWorld(t, { allowPrivateAddresses: true })
  const repository = await world.gitlab.createRepository('acme/docs')
  assert.equal(
    (await world.connect({ repositoryUrl: repository.url, docsDirectory: 'docs' })).statusCode,
    200,
  )
  // The docs folder is a link to the repository's root, whose public/gitconfig links to .git/config.
  const linked = await repository.commit(
    'main',
    {
      docs: { symlink: '.' },
      'docs.json': docsJson('acme'),
      'index.mdx': page('Docs.'),
      'public/gitconfig': { symlink: '../.git/config' },
    },
    'Link the docs folder',
  )
  assert.equal((await world.push(repository.url, 'main', linked)).statusCode, 202)
  const refused = await world.settle()
  assert.equal(refused.status, 'failed')
  assert.equal(refused.detail, 'The docs directory docs is not a folder in the commit')
  assert.deepEqual(await deployedPaths(world.app, world.project.id), [])

  // A real docs folder: a link to one of its own files is published, links out of it are not.
  const real = await repository.commit(
    'main',
    {
      docs: null,
      'docs.json': null,
      'index.mdx': null,
      'public/gitconfig': null,
      'README.md': '# Private notes\n',
      'docs/docs.json': docsJson('acme'),
      'docs/index.mdx': page('Real docs.'),
      'docs/public/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'docs/public/logo-link.svg': { symlink: 'logo.svg' },
      'docs/public/readme.md': { symlink: '../../README.md' },
      'docs/public/gitconfig': { symlink: '../../.git/config' },
      'docs/public/absolute': { symlink: '/etc/passwd' },
      'docs/public/folder': { symlink: '.' },
    },
    'A real docs folder',
  )
  assert.equal((await world.push(repository.url, 'main', real, { before: linked })).statusCode, 202)
  const deployed = await world.settle()
  assert.equal(deployed.status, 'deployed', deployed.detail ?? '')
  assert.deepEqual((await deployedPaths(world.app, world.project.id)).sort(), [
    'docs.json',
    'index.mdx',
    'public/logo-link.svg',
    'public/logo.svg',
  ])
  assert.match((await world.site()).body, /Real docs/)
})
