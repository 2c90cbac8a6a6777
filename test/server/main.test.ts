/**
 * The docs-server binary as a process: its log (readable lines on a terminal, one JSON object a line
 * otherwise), its one-off commands, how it fails to start (exit 1 with the reason, never a hang) and
 * how it stops on SIGTERM (keep-alive connections, uploads and builds in flight, exit code 0).
 */
import assert from 'node:assert/strict'
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { Agent, type IncomingHttpHeaders, request } from 'node:http'
import { createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type TestContext, test } from 'node:test'
import { promisify } from 'node:util'
import { S3BlobStore } from '../../server/blobs/s3.js'
import { freePort, serverBin, startDocsServer } from '../cli/helpers/docs-server.js'
import { builtBinary, needs } from '../tier.js'
import { startS3Server } from './blobs/s3-server.js'
import { fixtureSite, freshSchema, manifestOf, multipartBody, postgresUrl } from './helper.js'

/** Run docs-server with only --port (and a data folder) until it logs that it is ready. */
async function readyLog(t: TestContext, tty: boolean): Promise<{ port: number; log: string }> {
  const port = await freePort()
  const dataDir = await mkdtemp(join(tmpdir(), 'docs-server-log-'))
  t.after(() => rm(dataDir, { recursive: true, force: true }))
  const command = [
    process.execPath,
    builtBinary('docs-server'),
    '--port',
    String(port),
    '--data-dir',
    dataDir,
  ]
  // util-linux `script` gives the server a pseudo-terminal, as a person's shell would.
  const child = tty
    ? spawn('script', ['-qec', command.join(' '), '/dev/null'], { env: { ...process.env, NO_COLOR: '1' } })
    : spawn(command[0]!, command.slice(1), { env: { ...process.env, NO_COLOR: '1' } })
  let log = ''
  child.stdout.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  t.after(async () => {
    child.kill('SIGTERM')
    await exited
  })
  const started = Date.now()
  while (!log.includes('docs-server ready')) {
    if (Date.now() - started > 20_000 || child.exitCode !== null) throw new Error(`not ready:\n${log}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  await new Promise((resolve) => setTimeout(resolve, 200))
  return { port, log }
}

test('on a terminal the log is pretty, and its URLs follow --port', {
  skip: needs('a built binary'),
}, async (t) => {
  const { port, log } = await readyLog(t, true)
  assert.match(log, /INFO.*docs-server ready/)
  assert.match(log, new RegExp(`sites: "http://<slug>\\.localhost:${port}/"`))
  assert.doesNotMatch(log, /^\{"level"/m)
})

test('without a terminal each log line is JSON, for collectors', {
  skip: needs('a built binary'),
}, async (t) => {
  const { port, log } = await readyLog(t, false)
  const lines = log.trim().split('\n')
  for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), line)
  const ready = lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((r) => r.msg === 'docs-server ready')
  assert.equal(ready?.api, `http://localhost:${port}/`)
})

test('docs-server gc --dry-run says what would go; gc deletes blobs nothing references from the bucket', {
  skip: needs('a built binary'),
}, async (t) => {
  const s3 = await startS3Server(t)
  const dataDir = await mkdtemp(join(tmpdir(), 'docs-server-gc-'))
  t.after(() => rm(dataDir, { recursive: true, force: true }))
  const blobs = new S3BlobStore(s3.blobStore('site'), join(dataDir, 'scratch'), 0)
  t.after(() => blobs.close())
  const stray = [await blobs.put(Buffer.from('an orphan')), await blobs.put(Buffer.alloc(1024, 7))]
  for (const sha256 of stray)
    await s3.backdate(s3.bucket, blobs.keyOf(sha256), new Date(Date.now() - 7200_000))
  const fresh = await blobs.put(Buffer.from('written a moment ago'))
  const gc = (...args: string[]) =>
    promisify(execFile)(
      process.execPath,
      [builtBinary('docs-server'), 'gc', '--data-dir', dataDir, ...args],
      {
        env: { ...process.env, ...s3.env('site') },
      },
    )
  const dry = await gc('--dry-run')
  assert.match(
    dry.stdout,
    /^Dry run: nothing deleted\. Blob store s3:\/\/docs-[0-9a-f]+\/site at http:\/\/127\.0\.0\.1:\d+$/m,
  )
  assert.match(dry.stdout, /before: 3 blobs/)
  assert.match(dry.stdout, /would delete 0 deployment\(s\) and 2 blob\(s\)/)
  assert.deepEqual((await s3.usage('site')).objects, 3)
  const run = await gc()
  t.diagnostic(run.stdout.trim().split('\n').join(' | '))
  assert.match(run.stdout, /deleted 0 deployment\(s\) and 2 blob\(s\), freeing 1\.0 KB/)
  assert.match(run.stdout, /after: {2}1 blobs/)
  assert.deepEqual(await s3.usage('site'), { objects: 1, bytes: 'written a moment ago'.length })
  assert.equal(await blobs.has(fresh), true, 'younger than the grace period: kept')
})

test('docs-server --help prints the settings by group; a bad value exits 1 naming the flag and variable', {
  skip: needs('a built binary'),
}, async () => {
  const run = (...args: string[]) =>
    promisify(execFile)(process.execPath, [builtBinary('docs-server'), ...args], {
      env: { PATH: process.env.PATH },
    })
  const { stdout } = await run('--help')
  assert.match(stdout, /^Usage: docs-server \[start\] \[options\]$/m)
  assert.match(stdout, /^Git-connected deploys:$/m)
  assert.match(stdout, /^ {2}--port <value> +TCP port to listen on \(default 8080\)\n +env PORT$/m)
  await assert.rejects(run('--build-workers', 'many'), (error: { code: number; stderr: string }) => {
    assert.equal(error.code, 1)
    assert.equal(
      error.stderr,
      'docs-server: --build-workers / DOCS_BUILD_WORKERS: expected a whole number from 1 to 64, got "many"\n',
    )
    return true
  })
})

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: string
  /** Settles when the connection it came on closes. */
  closed: Promise<unknown>
}

/**
 * A request whose body is held back: `dispatched` resolves once the server has read its headers and
 * handed it to a handler (it answered `100 Continue`), `finish()` sends the body and reads the answer.
 */
function heldRequest(
  port: number,
  agent: Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
): { dispatched: Promise<void>; finish: () => Promise<Answer> } {
  const held = body.length > 0 ? { expect: '100-continue' } : {}
  const outgoing = request({
    host: '127.0.0.1',
    port,
    method,
    path,
    agent,
    headers: { ...headers, 'content-length': String(body.length), ...held },
  })
  const answer = new Promise<Answer>((resolve, reject) => {
    outgoing.on('error', reject)
    outgoing.on('response', (response) => {
      const closed = once(response.socket as Socket, 'close')
      let text = ''
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString()
      })
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: text,
          closed,
        }),
      )
    })
  })
  outgoing.flushHeaders()
  return {
    dispatched: new Promise((resolve) => outgoing.once('continue', resolve)),
    finish: () => {
      outgoing.end(body)
      return answer
    },
  }
}

const send = (
  port: number,
  agent: Agent,
  method: string,
  path: string,
  headers: Record<string, string> = {},
) => {
  const held = heldRequest(port, agent, method, path, headers, Buffer.alloc(0))
  return held.finish()
}

/** Waits (polling, no fixed delay) until `ready()` holds; fails with `what` after a minute. */
async function until(what: string, ready: () => boolean): Promise<void> {
  for (let waited = 0; !ready(); waited += 20) {
    if (waited > 60_000) throw new Error(`gave up waiting: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function json<T>(response: Response): Promise<T> {
  const text = await response.text()
  if (!response.ok) throw new Error(`${response.status} ${text}`)
  return JSON.parse(text) as T
}

test('SIGTERM behind a keep-alive balancer: idle connections close at once, a request in flight is answered, exit 0', {
  skip: needs('a built binary'),
}, async (t) => {
  // A grace shorter than the keep-alive timeout (72 s): a connection kept open past it ends in exit 1.
  const server = await startDocsServer(['--log-level', 'info', '--shutdown-grace', '20'])
  t.after(() => server.stop())
  const token = await server.tokenFor('ada@example.com')
  const idleAgent = new Agent({ keepAlive: true })
  const busyAgent = new Agent({ keepAlive: true })
  t.after(() => {
    idleAgent.destroy()
    busyAgent.destroy()
  })
  const idle = await send(server.port, idleAgent, 'GET', '/health')
  assert.equal(idle.headers.connection, 'keep-alive')
  const creating = heldRequest(
    server.port,
    busyAgent,
    'POST',
    '/projects/',
    { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    Buffer.from(JSON.stringify({ name: 'Drained', slug: 'drained' })),
  )
  await creating.dispatched
  server.process.kill('SIGTERM')
  await until('the server logs that it shuts down', () => server.output().includes('shutting down'))
  await idle.closed
  const created = await creating.finish()
  assert.equal(created.status, 201, created.body)
  await created.closed
  assert.deepEqual(await server.exited, { code: 0, signal: null }, server.output())
})

test('SIGTERM during an upload: the batch in flight is stored, the process exits 0, and the push finishes after a restart', {
  skip: needs('a built binary'),
}, async (t) => {
  const server = await startDocsServer(['--log-level', 'info'])
  t.after(() => server.stop())
  const token = await server.tokenFor('ada@example.com')
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  await json(
    await fetch(`${server.apiUrl}/projects/`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Uploads', slug: 'uploads' }),
    }),
  )
  const files = await fixtureSite('minimal')
  const { deployment, missing } = await json<{ deployment: { id: string }; missing: string[] }>(
    await fetch(`${server.apiUrl}/projects/slug/uploads/deployments`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ files: manifestOf(files) }),
    }),
  )
  const wanted = new Set(missing)
  const parts = manifestOf(files)
    .filter((entry) => wanted.has(entry.sha256))
    .map((entry) => ({ name: entry.path, bytes: files.get(entry.path)! }))
  const batch = multipartBody(parts)
  const agent = new Agent({ keepAlive: true })
  t.after(() => agent.destroy())
  const uploading = heldRequest(
    server.port,
    agent,
    'POST',
    `/projects/slug/uploads/deployments/${deployment.id}/files/batch`,
    { authorization: `Bearer ${token}`, ...batch.headers },
    batch.payload,
  )
  await uploading.dispatched
  server.process.kill('SIGTERM')
  await until('the server logs that it shuts down', () => server.output().includes('shutting down'))
  const uploaded = await uploading.finish()
  assert.equal(uploaded.status, 200, uploaded.body)
  assert.deepEqual(await server.exited, { code: 0, signal: null }, server.output())

  const restarted = await startDocsServer([], serverBin, { dataDir: server.dataDir })
  t.after(() => restarted.stop())
  const finalized = await fetch(
    `${restarted.apiUrl}/projects/slug/uploads/deployments/${deployment.id}/finalize`,
    { method: 'POST', headers: auth, body: JSON.stringify({ waitSeconds: 60 }) },
  )
  assert.equal((await json<{ status: string }>(finalized)).status, 'ready')
  assert.equal((await restarted.fetchSite('uploads', '/')).status, 200)
})

test('SIGTERM during a build: the process exits 0 and the build is finished, here or after a restart, never left building', {
  skip: needs('a built binary'),
}, async (t) => {
  // A 2 s grace gives running builds 1 s: a build of this size is usually cut, released and re-queued.
  const server = await startDocsServer(['--log-level', 'info', '--shutdown-grace', '2'])
  t.after(() => server.stop())
  const token = await server.tokenFor('ada@example.com')
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  await json(
    await fetch(`${server.apiUrl}/projects/`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Builds', slug: 'builds' }),
    }),
  )
  const slugs = Array.from({ length: 200 }, (_, index) => `page-${index}`)
  const files = new Map<string, Buffer>([
    ['docs.json', Buffer.from(JSON.stringify({ name: 'Builds', navigation: { pages: slugs } }))],
  ])
  for (const slug of slugs)
    files.set(
      `${slug}.mdx`,
      Buffer.from(`---\ntitle: ${slug}\n---\n\n${'A paragraph with `code`. '.repeat(50)}\n`),
    )
  const { deployment } = await json<{ deployment: { id: string } }>(
    await fetch(`${server.apiUrl}/projects/slug/builds/deployments`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ files: manifestOf(files) }),
    }),
  )
  const batch = multipartBody([...files].map(([name, bytes]) => ({ name, bytes })))
  await json(
    await fetch(`${server.apiUrl}/projects/slug/builds/deployments/${deployment.id}/files/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...batch.headers },
      body: batch.payload,
    }),
  )
  const finalize = await fetch(
    `${server.apiUrl}/projects/slug/builds/deployments/${deployment.id}/finalize`,
    {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ waitSeconds: 0 }),
    },
  )
  assert.equal(finalize.status, 202, await finalize.text())
  await until('the build starts', () => server.output().includes('build leased'))
  server.process.kill('SIGTERM')
  assert.deepEqual(await server.exited, { code: 0, signal: null }, server.output())
  const cut = server.output().includes('build stopped by shutdown; lease released')
  t.diagnostic(cut ? 'the build was cut and re-queued' : 'the build finished within the grace')

  const restarted = await startDocsServer([], serverBin, { dataDir: server.dataDir })
  t.after(() => restarted.stop())
  let status = 'building'
  for (let waited = 0; waited < 120_000; waited += 100) {
    const read = await json<{ status: string; error?: string | null }>(
      await fetch(`${restarted.apiUrl}/projects/slug/builds/deployments/${deployment.id}`, { headers: auth }),
    )
    status = read.status
    if (status !== 'building') break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  assert.equal(status, 'ready')
})

/** Runs docs-server until it exits (at most `seconds`); its code, stderr and whether it had to be killed. */
async function startThatFails(
  args: string[],
  env: Record<string, string> = {},
  seconds = 30,
): Promise<{ code: number | null; stderr: string; killed: boolean }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'docs-server-start-'))
  try {
    await promisify(execFile)(
      process.execPath,
      [builtBinary('docs-server'), '--data-dir', dataDir, ...args],
      {
        env: { PATH: process.env.PATH, ...env },
        timeout: seconds * 1000,
        // Not SIGTERM: the server would shut down cleanly and exit 0, hiding the hang.
        killSignal: 'SIGKILL',
      },
    )
    return { code: 0, stderr: '', killed: false }
  } catch (error) {
    const failed = error as { code: number | null; stderr: string; killed: boolean }
    return { code: failed.code, stderr: failed.stderr, killed: failed.killed }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

test('a port in use stops the start with exit 1 and the reason, on PostgreSQL too (nothing left running holds the process)', {
  skip: needs('PostgreSQL'),
}, async (t) => {
  const taken = createServer().listen(0, '127.0.0.1')
  await once(taken, 'listening')
  t.after(() => taken.close())
  const port = (taken.address() as { port: number }).port
  const schema = await freshSchema(t)
  const run = await startThatFails([
    ...['--port', String(port), '--host', '127.0.0.1', '--log-level', 'warn'],
    ...['--database-url', postgresUrl, '--database-schema', schema],
  ])
  assert.equal(run.killed, false, 'the process hung after failing to listen')
  assert.equal(run.code, 1)
  assert.match(
    run.stderr,
    /^docs-server: port \d+ on 127\.0\.0\.1 is in use \(another docs-server, or docsctl dev\?\): stop what holds it, or pass another with --port \/ PORT$/m,
  )
})

test('an unreachable database stops the start with exit 1, naming the database without its password', {
  skip: needs('a built binary'),
}, async () => {
  const port = await freePort()
  const run = await startThatFails([
    ...['--port', String(await freePort()), '--log-level', 'warn'],
    ...['--database-url', `postgres://docs:hunter2@127.0.0.1:${port}/docs`],
  ])
  assert.equal(run.killed, false)
  assert.equal(run.code, 1)
  assert.equal(
    run.stderr,
    `docs-server: cannot reach the database at 127.0.0.1:${port}/docs: connect ECONNREFUSED 127.0.0.1:${port}\n`,
  )
})

test('a start that hangs (a database that accepts and never answers) ends at --startup-timeout, naming the step', {
  skip: needs('a built binary'),
}, async (t) => {
  const silent = createServer(() => {}).listen(0, '127.0.0.1')
  await once(silent, 'listening')
  t.after(() => {
    silent.close()
  })
  const port = (silent.address() as { port: number }).port
  const run = await startThatFails([
    ...['--port', String(await freePort()), '--log-level', 'warn', '--startup-timeout', '1'],
    ...['--database-url', `postgres://docs@127.0.0.1:${port}/docs`],
  ])
  assert.equal(run.killed, false)
  assert.equal(run.code, 1)
  assert.match(
    run.stderr,
    /^docs-server: start-up did not finish within 1 s \(--startup-timeout\): still connecting to the database and running its migrations/m,
  )
})

test('a bucket that does not exist stops the start with exit 1, naming the bucket', {
  skip: needs('a built binary'),
}, async (t) => {
  const s3 = await startS3Server(t)
  const run = await startThatFails(['--port', String(await freePort()), '--log-level', 'warn'], {
    ...s3.env('site', 'no-such-bucket'),
  })
  assert.equal(run.killed, false)
  assert.equal(run.code, 1)
  assert.match(
    run.stderr,
    /cannot use the blob store s3:\/\/no-such-bucket\/site at http:\/\/127\.0\.0\.1:\d+: the bucket "no-such-bucket" does not exist: create it first/,
  )
})
