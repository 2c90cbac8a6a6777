/**
 * docs-server as a real process: create a token with the operator command, create a project, upload a
 * fixture site with the raw API over HTTP, finalize, read pages by Host, push a second deployment with
 * one changed page (one file uploaded, one page rebuilt), promote the first back, shut down cleanly.
 */
import assert from 'node:assert/strict'
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { promisify } from 'node:util'
import getPort from 'get-port'
import { fromPackageRoot } from '../../compiler/assets.js'
import { fixtureSite, manifestOf, multipartBody, sha256 } from '../server/helper.js'

const serverMain = fromPackageRoot('dist', 'bundle', 'server', 'main.js')

interface HttpResult {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  json: <T>() => T
}

interface DeploymentRecord {
  id: string
  live: boolean
  previewUrl: string
  stats: { pagesRendered: number; pagesReused: number }
}

function http(
  port: number,
  method: string,
  path: string,
  options: { host?: string; headers?: Record<string, string>; body?: Buffer | string; json?: unknown } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const body = options.json !== undefined ? Buffer.from(JSON.stringify(options.json)) : options.body
    const headers: Record<string, string | number> = {
      host: options.host ?? `localhost:${port}`,
      ...options.headers,
    }
    if (options.json !== undefined) headers['content-type'] = 'application/json'
    if (body !== undefined) headers['content-length'] = Buffer.byteLength(body)
    const outgoing = request({ port, host: '127.0.0.1', method, path, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => {
        const bytes = Buffer.concat(chunks)
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: bytes,
          json: <T>() => JSON.parse(bytes.toString('utf8')) as T,
        })
      })
      response.on('error', reject)
    })
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

test('docs-server end to end over real sockets', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'docs-e2e-'))
  t.after(() => rm(dataDir, { recursive: true, force: true }))
  const port = await getPort({ host: '127.0.0.1' })
  const settings = [
    '--data-dir',
    dataDir,
    '--port',
    String(port),
    '--base-domain',
    `localhost:${port}`,
    '--api-host',
    `localhost:${port}`,
  ]

  const created = await promisify(execFile)(process.execPath, [
    serverMain,
    'token',
    'create',
    '--email',
    'ops@example.com',
    ...settings,
  ])
  const token = created.stdout.trim().split('\n').at(-1) ?? ''
  assert.match(token, /^dsa_[A-Za-z0-9_-]{43}$/)
  const auth = { authorization: `Bearer ${token}` }

  const server: ChildProcess = spawn(process.execPath, [serverMain, ...settings, '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  server.stdout?.on('data', (chunk) => (output += chunk))
  server.stderr?.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)))
  t.after(() => {
    if (server.exitCode === null) server.kill('SIGKILL')
  })
  // Until it answers, it exits, or a minute passes: a loaded machine starts it slowly, never wrongly.
  for (let attempt = 0; ; attempt++) {
    const health = await http(port, 'GET', '/health').catch(() => undefined)
    if (health?.status === 200) break
    if (server.exitCode !== null) assert.fail(`server exited with ${server.exitCode}: ${output}`)
    if (attempt > 600) assert.fail(`server did not start within a minute: ${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }

  const project = await http(port, 'POST', '/projects/', {
    headers: auth,
    json: { name: 'E2E', slug: 'e2e-site' },
  })
  assert.equal(project.status, 201, project.body.toString())
  const siteHost = `e2e-site.localhost:${port}`

  const push = async (files: Map<string, Buffer>) => {
    const createdDeployment = await http(port, 'POST', '/projects/slug/e2e-site/deployments', {
      headers: auth,
      json: { branch: 'main', commitMessage: 'e2e', files: manifestOf(files) },
    })
    assert.equal(createdDeployment.status, 201, createdDeployment.body.toString())
    const { deployment, missing } = createdDeployment.json<{
      deployment: { id: string }
      missing: string[]
    }>()
    const wanted = new Set(missing)
    const parts = [...files]
      .filter(([, bytes]) => wanted.delete(sha256(bytes)))
      .map(([name, bytes]) => ({ name, bytes }))
    const body = multipartBody(parts)
    const uploaded = await http(
      port,
      'POST',
      `/projects/slug/e2e-site/deployments/${deployment.id}/files/batch`,
      {
        headers: { ...auth, ...body.headers },
        body: body.payload,
      },
    )
    assert.equal(uploaded.status, 200, uploaded.body.toString())
    assert.deepEqual(uploaded.json<{ missing: string[] }>().missing, [])
    const finalized = await http(
      port,
      'POST',
      `/projects/slug/e2e-site/deployments/${deployment.id}/finalize`,
      {
        headers: auth,
        json: { waitSeconds: 60 },
      },
    )
    assert.equal(finalized.status, 200, finalized.body.toString())
    return {
      id: deployment.id,
      uploaded: parts.map((part) => part.name),
      record: finalized.json<DeploymentRecord>(),
    }
  }

  const site = await fixtureSite('full')
  const first = await push(site)
  assert.equal(first.uploaded.length, site.size)
  assert.equal(first.record.live, true)
  const home = await http(port, 'GET', '/', { host: siteHost, headers: { 'accept-encoding': 'br' } })
  assert.equal(home.status, 200)
  assert.equal(home.headers['content-encoding'], 'br')
  assert.equal(home.headers['x-content-type-options'], 'nosniff')
  const quickstart = await http(port, 'GET', '/quickstart/', { host: siteHost })
  assert.equal(quickstart.status, 200)
  const redirect = await http(port, 'GET', '/quickstart', { host: siteHost })
  assert.equal(redirect.status, 301)
  assert.equal(redirect.headers.location, '/quickstart/')
  const apiOnSite = await http(port, 'GET', '/projects/', { host: siteHost, headers: auth })
  assert.notEqual(apiOnSite.status, 200)

  // One page changed: one file uploaded, one page rendered.
  const marker = `Changed ${randomBytes(4).toString('hex')}`
  const changed = new Map(site)
  changed.set('quickstart.mdx', Buffer.concat([site.get('quickstart.mdx')!, Buffer.from(`\n\n${marker}\n`)]))
  const second = await push(changed)
  assert.deepEqual(second.uploaded, ['quickstart.mdx'])
  assert.equal(second.record.stats.pagesRendered, 1)
  assert.ok(second.record.stats.pagesReused > 0)
  assert.match(
    (await http(port, 'GET', '/quickstart/', { host: siteHost })).body.toString(),
    new RegExp(marker),
  )
  const preview = await http(port, 'GET', '/quickstart/', { host: new URL(first.record.previewUrl).host })
  assert.equal(preview.headers['x-robots-tag'], 'noindex')
  assert.doesNotMatch(preview.body.toString(), new RegExp(marker))

  const back = await http(port, 'POST', `/projects/slug/e2e-site/deployments/${first.id}/promote`, {
    headers: auth,
  })
  assert.equal(back.status, 200)
  assert.doesNotMatch(
    (await http(port, 'GET', '/quickstart/', { host: siteHost })).body.toString(),
    new RegExp(marker),
  )

  // Bad input over a real socket: a 5 MB batch and a truncated multipart body; the server keeps serving.
  const big = randomBytes(5 * 1024 * 1024)
  const third = await http(port, 'POST', '/projects/slug/e2e-site/deployments', {
    headers: auth,
    json: { files: [{ path: 'big.bin', sha256: sha256(big), size: big.length }, ...manifestOf(site)] },
  })
  const thirdId = third.json<{ deployment: { id: string } }>().deployment.id
  const bigBody = multipartBody([{ name: 'big.bin', bytes: big }])
  const tooLarge = await http(port, 'POST', `/projects/slug/e2e-site/deployments/${thirdId}/files/batch`, {
    headers: { ...auth, ...bigBody.headers },
    body: bigBody.payload,
  })
  assert.equal(tooLarge.status, 413)
  const small = multipartBody([{ name: 'big.bin', bytes: big.subarray(0, 1000) }])
  const truncated = await http(port, 'POST', `/projects/slug/e2e-site/deployments/${thirdId}/files/batch`, {
    headers: { ...auth, ...small.headers },
    body: small.payload.subarray(0, 600),
  })
  assert.equal(truncated.status, 400)
  const stillLive = await http(port, 'GET', '/projects/slug/e2e-site', { headers: auth })
  assert.equal(stillLive.json<{ liveDeploymentId: string }>().liveDeploymentId, first.id)
  assert.equal((await http(port, 'GET', '/health')).status, 200)

  server.kill('SIGTERM')
  assert.equal(await exited, 0, output)
})
