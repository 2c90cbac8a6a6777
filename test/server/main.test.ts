/** The docs-server binary's log: readable lines on a terminal, one JSON object a line otherwise. */
import assert from 'node:assert/strict'
import { execFile, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type TestContext, test } from 'node:test'
import { promisify } from 'node:util'
import { S3BlobStore } from '../../server/blobs/s3.js'
import { freePort } from '../cli/helpers/docs-server.js'
import { builtBinary, needs } from '../tier.js'
import { startS3Server } from './blobs/s3-server.js'

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
