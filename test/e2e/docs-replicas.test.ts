/**
 * The manual's "Several replicas" steps (docs/operations/replicas.mdx): the bucket command runs verbatim against a real S3 server
 * (s3rver) and creates the bucket; the docs-server command, read by the server's own settings, listens
 * on every interface and uses the database and bucket the steps set up.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import { promisify } from 'node:util'
import { HeadBucketCommand } from '@aws-sdk/client-s3'
import { fromPackageRoot } from '../../compiler/assets.js'
import { loadConfig } from '../../server/config.js'
import { startS3Server } from '../server/blobs/s3-server.js'

const replicasPage = 'docs/operations/replicas.mdx'

/** The commands of the ```sh block after `walkthrough:replicas`, without their comments. */
async function replicaSteps(): Promise<string[]> {
  const page = await readFile(fromPackageRoot(replicasPage), 'utf8')
  const marker = page.indexOf('walkthrough:replicas')
  assert.notEqual(marker, -1, `${replicasPage} has no walkthrough:replicas block`)
  const block = /```sh\n([\s\S]*?)```/.exec(page.slice(marker))
  assert.ok(block, 'no sh block after walkthrough:replicas')
  return block[1]!
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== '')
}

/** The variables the block's `export` lines set. */
function exported(steps: string[]): Record<string, string> {
  const env: Record<string, string> = {}
  for (const line of steps.filter((step) => step.startsWith('export '))) {
    for (const assignment of line.slice('export '.length).split(/\s+/)) {
      const equals = assignment.indexOf('=')
      env[assignment.slice(0, equals)] = assignment.slice(equals + 1)
    }
  }
  return env
}

test("the manual's bucket command creates the bucket the replicas use", async (t) => {
  const steps = await replicaSteps()
  const env = exported(steps)
  const bucket = /^s3:\/\/([^/]+)/.exec(env.DOCS_BLOB_STORE ?? '')?.[1]
  assert.ok(bucket, 'the steps set no DOCS_BLOB_STORE')
  const create = steps.find((step) => /\bPUT\b|\bmb\b/.test(step))
  assert.ok(create, 'the steps never create the bucket')
  const s3 = await startS3Server(t)
  // The steps' variables, pointed at this S3 server.
  const shell = {
    PATH: process.env.PATH ?? '',
    ...env,
    DOCS_S3_ENDPOINT: s3.endpoint,
    DOCS_S3_ACCESS_KEY_ID: s3.accessKeyId,
    DOCS_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  }
  await promisify(execFile)('bash', ['-euc', create], { env: shell })
  await s3.client().send(new HeadBucketCommand({ Bucket: bucket }))
})

test("the manual's replica command listens on every interface, on the shared database and bucket", async () => {
  const steps = await replicaSteps()
  const command = steps.find((step) => step.startsWith('docs-server '))
  assert.ok(command, 'the steps start no docs-server')
  const { config } = loadConfig(command.split(/\s+/).slice(1), exported(steps))
  assert.equal(config.host, '0.0.0.0')
  assert.match(config.databaseUrl ?? '', /^postgres:\/\//)
  assert.equal(config.blobStore.kind, 's3')
})
