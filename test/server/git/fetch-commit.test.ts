/**
 * A repository URL is chosen by a project's owner, so a fetch must not be a way into the server's own
 * network: loopback, private and link-local addresses are refused (every address a host resolves to),
 * redirects are not followed, a pack has a size limit, and whatever fails, the owner reads one sentence.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, readlink, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { isPublicAddress } from '../../../server/git/addresses.js'
import { FetchError, fetchFailedDetail, Remote } from '../../../server/git/fetch-commit.js'
import { GitServer, git } from './git-server.js'
import { docsJson, gitlabWorld, page } from './world.js'

test('public unicast addresses only', () => {
  for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
    assert.equal(isPublicAddress(address), true, address)
  for (const address of [
    '127.0.0.1',
    '127.1.2.3',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    'fe80::1%eth0',
    'not an address',
  ])
    assert.equal(isPublicAddress(address), false, address)
})

test('every address a host resolves to is checked', async () => {
  const open = (addresses: string[], allowPrivateAddresses = false) =>
    Remote.open({
      repositoryUrl: 'https://git.acme.dev/acme/docs.git',
      credentials: undefined,
      allowPrivateAddresses,
      timeoutMs: 10_000,
      maxFetchBytes: 1024 * 1024,
      resolve: async () => addresses,
    })
  await open(['93.184.216.34'])
  await assert.rejects(open(['93.184.216.34', '10.0.0.5']), FetchError)
  await assert.rejects(open(['::ffff:127.0.0.1']), FetchError)
  await assert.rejects(open([]), FetchError)
  await open(['10.0.0.5'], true)
})

test('git connects to the addresses that were checked, not to what DNS answers later', async (t) => {
  const gitServer = await GitServer.start(t)
  const repository = await gitServer.createRepository('acme/docs')
  const sha = await repository.commit('main', { 'docs.json': docsJson('acme') }, 'Start')
  const dir = await mkdtemp(join(tmpdir(), 'docs-remote-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  // `git.docs.invalid` exists in no DNS: only the pinned addresses (IPv6 first, refused) lead anywhere.
  const remote = await Remote.open({
    repositoryUrl: `http://git.docs.invalid:${new URL(gitServer.origin).port}/acme/docs.git`,
    credentials: undefined,
    allowPrivateAddresses: true,
    timeoutMs: 30_000,
    maxFetchBytes: 1024 * 1024,
    resolve: async () => ['::1', '127.0.0.1'],
  })
  assert.equal(await remote.branchHead('main', join(dir, 'work')), sha)
  assert.equal(await remote.branchHead('gone', join(dir, 'work')), undefined)
  await remote.fetchCommit(sha, join(dir, 'repository'))
  assert.equal(await git(join(dir, 'repository'), 'rev-parse', 'FETCH_HEAD'), sha)
})

test('a fetch never reaches loopback or a private address unless the server allows it', async (t) => {
  const world = await gitlabWorld(t, { allowHosts: ['localhost'] })
  const repository = await world.gitlab.createRepository('acme/docs')
  const sha = await repository.commit(
    'main',
    { 'docs.json': docsJson('acme'), 'index.mdx': page('Internal.') },
    'Start',
  )
  const port = new URL(world.gitlab.origin).port
  for (const url of [repository.url, `http://localhost:${port}/acme/docs.git`]) {
    assert.equal((await world.connect({ repositoryUrl: url })).statusCode, 200)
    assert.equal((await world.push(url, 'main', sha)).statusCode, 202)
    const delivery = await world.settle()
    assert.equal(delivery.status, 'failed', url)
    assert.equal(delivery.detail, fetchFailedDetail)
  }
  assert.deepEqual(
    world.gitlab.requests.filter((request) => request.url.startsWith('/acme/docs')),
    [],
    'the loopback Git server was never asked',
  )
  assert.equal((await world.site()).status, 404)
  const logged = world.logLines.filter((line) => line.includes('git fetch failed'))
  assert.equal(logged.length, 2)
  assert.match(logged.join(''), /127\.0\.0\.1.*not a public address/)
})

test('a closed port, a web server and a missing repository fail with the same words', async (t) => {
  const world = await gitlabWorld(t, { allowPrivateAddresses: true, allowHosts: ['*'] })
  const web = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end('<h1>Intranet</h1>')
  })
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise((resolve) => web.close(resolve)))
  const closed = createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const closedPort = (closed.address() as AddressInfo).port
  await new Promise((resolve) => closed.close(resolve))

  const urls = [
    `http://127.0.0.1:${closedPort}/x/docs.git`,
    `http://127.0.0.1:${(web.address() as AddressInfo).port}/x/docs.git`,
    `${world.gitlab.origin}/x/missing.git`,
  ]
  const details: (string | null)[] = []
  for (const url of urls) {
    assert.equal((await world.connect({ repositoryUrl: url })).statusCode, 200)
    assert.equal((await world.push(url, 'main', 'a'.repeat(40))).statusCode, 202)
    const delivery = await world.settle()
    assert.equal(delivery.status, 'failed')
    details.push(delivery.detail)
  }
  assert.deepEqual(details, [fetchFailedDetail, fetchFailedDetail, fetchFailedDetail])
  // The reasons are in the server's log, for its operator.
  assert.equal(world.logLines.filter((line) => line.includes('git fetch failed')).length, 3)
})

test('a pack larger than --git-max-fetch-bytes is not fetched', async (t) => {
  const world = await gitlabWorld(t, { allowPrivateAddresses: true, maxFetchBytes: 256 * 1024 })
  const repository = await world.gitlab.createRepository('acme/docs', {
    acceptsToken: (token) => token !== '',
  })
  const sha = await repository.commit(
    'main',
    {
      'docs.json': docsJson('acme'),
      'index.mdx': page('Small docs.'),
      // Not in the docs folder's way, but in the commit: random bytes do not compress.
      'assets.txt': randomBytes(1024 * 1024).toString('base64'),
    },
    'Start',
  )
  assert.equal((await world.connect({ repositoryUrl: repository.url })).statusCode, 200)
  assert.equal((await world.push(repository.url, 'main', sha)).statusCode, 202)
  const delivery = await world.settle()
  assert.equal(delivery.status, 'failed')
  assert.equal(delivery.detail, fetchFailedDetail)
  assert.match(world.logLines.join(''), /larger than 262144 bytes \(--git-max-fetch-bytes\)/)
})

/** Processes whose working folder is `dir` or under it (Linux's /proc). */
async function processesIn(dir: string): Promise<string[]> {
  const found: string[] = []
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => '')
    if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push(pid)
  }
  return found
}

test('a stopped fetch leaves no git process writing into its folder', async (t) => {
  const gitServer = await GitServer.start(t)
  const repository = await gitServer.createRepository('acme/docs')
  const sha = await repository.commit(
    'main',
    { 'docs.json': docsJson('acme'), 'assets.txt': randomBytes(4 * 1024 * 1024).toString('base64') },
    'Start',
  )
  const dir = await mkdtemp(join(tmpdir(), 'docs-remote-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  const remote = await Remote.open({
    repositoryUrl: repository.url,
    credentials: undefined,
    allowPrivateAddresses: true,
    timeoutMs: 30_000,
    maxFetchBytes: 64 * 1024,
    resolve: async () => ['127.0.0.1'],
  })
  await assert.rejects(remote.fetchCommit(sha, join(dir, 'repository')), /--git-max-fetch-bytes/)
  // git's children (remote-http, index-pack) were killed with it, so the folder goes at once.
  assert.deepEqual(await processesIn(dir), [])
  await rm(dir, { recursive: true })
})
