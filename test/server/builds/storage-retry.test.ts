/**
 * A build running while its storage is away (a real s3rver or the shared PostgreSQL behind a relay the
 * test cuts): transient faults are tried again with backoff within the build's time, and past it the
 * job goes back to the queue; the deployment is built once storage answers, never failed for the
 * outage. Before, the first refused connection failed the build for good ("The build crashed").
 * Waits go through the pipeline's injected sleeper, so no test waits the seconds of a backoff.
 */
import assert from 'node:assert/strict'
import { type TestContext, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { needs } from '../../tier.js'
import { startS3Server } from '../blobs/s3-server.js'
import {
  bearer,
  createAndUpload,
  createProject,
  type Engine,
  postgresUrl,
  signIn,
  testApp,
} from '../helper.js'
import { startRelay } from '../relay.js'

const site = new Map([
  ['docs.json', Buffer.from(JSON.stringify({ name: 'Outage', navigation: { pages: ['index'] } }))],
  ['index.mdx', Buffer.from('---\ntitle: Home\n---\n\nBuilt through an outage.\n')],
])

/** An app on SQLite whose blob store is an s3rver reached through a relay the test cuts. */
async function appOnCutS3(t: TestContext) {
  const s3 = await startS3Server(t)
  const relay = await startRelay(t, Number(new URL(s3.endpoint).port))
  const app = await testApp(t, 'sqlite', {
    blobStore: { ...s3.blobStore('outage'), endpoint: `http://127.0.0.1:${relay.port}` },
  })
  return { app, relay }
}

/** Upload the site (storage up), then cut storage and finalize: the build starts during the outage. */
async function pushDuringOutage(app: FastifyInstance, cut: () => Promise<void>) {
  const token = await signIn(app)
  await createProject(app, token, 'outage')
  const { deployment } = await createAndUpload(app, token, 'outage', site)
  await cut()
  const finalized = await app.inject({
    method: 'POST',
    url: `/projects/slug/outage/deployments/${deployment.id}/finalize`,
    headers: bearer(token),
    payload: { promote: true, waitSeconds: 60 },
  })
  return { id: deployment.id, finalized }
}

async function assertLive(app: FastifyInstance, id: string) {
  await app.builds.settled(id, 60_000)
  const row = await app.repos.deployments.findById(id)
  assert.equal(row?.status, 'ready', row?.error ?? '')
  const project = await app.repos.projects.findById(row.project_id)
  assert.equal(project?.live_deployment_id, id)
}

test('a build during an S3 outage waits with backoff and goes live once the bucket answers', async (t) => {
  const { app, relay } = await appOnCutS3(t)
  const waits: number[] = []
  app.builds.sleep = async (ms) => {
    waits.push(ms)
    if (ms >= 2000) await relay.restore()
  }
  const { id, finalized } = await pushDuringOutage(app, relay.cut)
  assert.equal(finalized.statusCode, 200, finalized.body)
  await assertLive(app, id)
  assert.deepEqual(
    [...new Set(waits)].sort((a, b) => a - b),
    [500, 1000, 2000],
    'waits double from 500 ms',
  )
})

test('a build whose time runs out during an S3 outage is re-queued, not failed, and built once S3 is back', async (t) => {
  const { app, relay } = await appOnCutS3(t)
  const deadlines: (() => void)[] = []
  app.builds.startDeadline = (_ms, expire) => {
    deadlines.push(expire)
    return { cancel: () => {} }
  }
  app.builds.sleep = async (ms, signal) => {
    // The first lease runs out of time while S3 is away; the second finds it back.
    if (deadlines.length === 1 && ms >= 2000) deadlines[0]!()
    if (deadlines.length === 2) await relay.restore()
    signal.throwIfAborted()
  }
  const { id, finalized } = await pushDuringOutage(app, relay.cut)
  assert.equal(finalized.statusCode, 200, finalized.body)
  await assertLive(app, id)
  assert.equal(deadlines.length, 2, 'taken a second time after it went back to the queue')
  const job = await app.db
    .selectFrom('build_jobs')
    .select(['attempts', 'status'])
    .where('deployment_id', '=', id)
    .executeTakeFirst()
  assert.deepEqual(job, { attempts: 1, status: 'done' }, 'the outage spent none of its attempts')
})

const postgres: Engine = 'postgres'
test('a build whose PostgreSQL connections drop mid-build tries again and goes live', {
  skip: needs('PostgreSQL'),
}, async (t) => {
  const relay = await startRelay(t, Number(new URL(postgresUrl).port || 5432))
  const app = await testApp(t, postgres, { databaseUrl: relay.url(postgresUrl) })
  let cut = false
  // The database goes away the moment the build is leased, before it reads its deployment.
  app.builds.startDeadline = () => {
    if (!cut) {
      cut = true
      void relay.cut()
    }
    return { cancel: () => {} }
  }
  const waits: number[] = []
  app.builds.sleep = async (ms) => {
    waits.push(ms)
    if (ms >= 1000) await relay.restore()
  }
  const { id } = await pushDuringOutage(app, async () => {})
  await relay.restore()
  await assertLive(app, id)
  assert.ok(waits.length >= 2, `waited for the database ${waits.length} times`)
})
