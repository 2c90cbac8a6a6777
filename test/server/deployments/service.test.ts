/**
 * The deployment service on its own, with the dependencies it is given (real SQLite, the filesystem
 * blob store, the build pipeline) and a clock the test moves: refusals come out as the errors of
 * server/deployments/errors.ts, never as HTTP answers.
 */
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { test } from 'node:test'
import type { DeploymentQuotas } from '../../../server/config.js'
import type { ProjectRow } from '../../../server/db/repositories/projects.js'
import {
  ChunkRefused,
  ManifestInvalid,
  ManifestTooLarge,
  NotUploading,
  QuotaExceeded,
  UploadIncomplete,
} from '../../../server/deployments/errors.js'
import { DeploymentService } from '../../../server/deployments/service.js'
import { createProject, fixtureSite, manifestOf, sha256, signIn, testApp } from '../helper.js'

const hour = 3600_000

/** A service over the app's own stores, with limits, quotas and a clock of the test's choosing. */
async function serviceOf(
  t: Parameters<typeof testApp>[0],
  quotas: Partial<DeploymentQuotas> = {},
  limits = { maxFilesPerDeployment: 3, maxFileBytes: 1000 },
) {
  const app = await testApp(t)
  const token = await signIn(app)
  const { id } = await createProject(app, token, 'acme')
  const project = (await app.repos.projects.findById(id)) as ProjectRow
  const clock = { now: Date.now() }
  const service = new DeploymentService({
    repos: app.repos,
    blobs: app.blobs,
    builds: app.builds,
    limits: { ...limits, quotas: { ...app.config.quotas, ...quotas } },
    clock: () => clock.now,
  })
  return { app, project, service, clock }
}

const text = (value: string) => Buffer.from(value)
const oneFile = (name: string, bytes: Buffer) => manifestOf(new Map([[name, bytes]]))
const newDeployment = (files: ReturnType<typeof manifestOf>) => ({
  branch: 'main',
  commitMessage: null,
  environment: null,
  files,
})

test('create → receive → finalize builds the site and answers the deployment ready', async (t) => {
  const roomy = { maxFilesPerDeployment: 100, maxFileBytes: 1024 * 1024 }
  const { app, project, service } = await serviceOf(t, {}, roomy)
  const site = await fixtureSite('minimal')
  const { deployment, missing } = await service.create(project, newDeployment(manifestOf(site)))
  assert.equal(deployment.status, 'uploading')
  assert.equal(missing.length, new Set([...site.values()].map((bytes) => sha256(bytes))).size)

  // Bytes that are not the declared file are refused and not counted as received.
  const [path, bytes] = [...site][0]!
  const file = { sha256: sha256(bytes), size: bytes.length }
  const wrong = await service.receive(deployment, file, Readable.from([Buffer.alloc(bytes.length, 'x')]))
  assert.equal(wrong.ok, false)
  await assert.rejects(
    service.finalize(project, deployment, { promote: true, waitMs: 0 }),
    (error: unknown) => error instanceof UploadIncomplete && error.missingPaths.includes(path),
  )

  for (const [, content] of site) {
    const stored = await service.receive(
      deployment,
      { sha256: sha256(content), size: content.length },
      Readable.from([content]),
    )
    assert.equal(stored.ok, true)
  }
  const built = await service.finalize(project, deployment, { promote: true, waitMs: 60_000 })
  assert.equal(built.status, 'ready', built.error ?? '')
  assert.equal((await app.repos.projects.findById(project.id))?.live_deployment_id, deployment.id)
  // Only an uploading deployment takes files.
  await assert.rejects(
    service.receive(built, file, Readable.from([bytes])),
    (error: unknown) => error instanceof NotUploading && error.status === 'ready',
  )
  // A file the project holds already is not asked for again.
  const again = await service.create(project, newDeployment(manifestOf(site)))
  assert.deepEqual(again.missing, [])
})

test('a manifest that breaks a rule is refused as ManifestInvalid or ManifestTooLarge, before anything is stored', async (t) => {
  const { app, project, service } = await serviceOf(t)
  const refused = await service
    .create(
      project,
      newDeployment([
        { path: '../escape.mdx', sha256: sha256('a'), size: 1 },
        { path: 'big.bin', sha256: sha256('b'), size: 1001 },
        { path: 'big.bin', sha256: sha256('c'), size: 1 },
      ]),
    )
    .catch((error: unknown) => error)
  assert.ok(refused instanceof ManifestInvalid)
  assert.equal(refused.tooLarge, true)
  assert.deepEqual(refused.issues, [
    {
      index: 0,
      path: '../escape.mdx',
      problem: 'path',
      rule: 'must stay inside the docs folder: no empty, "." or ".." segments',
    },
    { index: 1, path: 'big.bin', problem: 'size', size: 1001, limit: 1000 },
    { index: 2, path: 'big.bin', problem: 'duplicate' },
  ])

  const tooMany = await service
    .check(
      project,
      ['a', 'b', 'c', 'd'].map((name) => ({ path: `${name}.mdx`, size: 1 })),
    )
    .catch((error: unknown) => error)
  assert.ok(tooMany instanceof ManifestTooLarge)
  assert.deepEqual([tooMany.unit, tooMany.limit, tooMany.listed], ['files', 3, 4])
  assert.equal(tooMany.message, 'A deployment holds at most 3 files; this one lists 4')
  assert.deepEqual(await app.repos.deployments.list(project.id, 10), { deployments: [], nextCursor: null })
})

test('quotas are refused as QuotaExceeded and ManifestTooLarge, counted over the last 24 hours of the clock', async (t) => {
  const { project, service, clock } = await serviceOf(t, {
    projectDeploymentsPerDay: 1,
    maxDeploymentBytes: 100,
  })
  const bytes = text('# Home\n')
  await service.create(project, newDeployment(oneFile('index.mdx', bytes)))

  const second = await service
    .create(project, newDeployment(oneFile('index.mdx', text('# Again\n'))))
    .catch((error: unknown) => error)
  assert.ok(second instanceof QuotaExceeded)
  assert.deepEqual(second.quota, {
    scope: 'project',
    unit: 'deployments',
    limit: 1,
    setting: '--project-deployments-per-day',
  })
  assert.equal(
    second.message,
    'Project "acme" created 1 deployments in the last 24 hours, the most allowed; try again later',
  )
  assert.equal(second.rule, 'at most 1 deployments a day per project (--project-deployments-per-day)')
  assert.equal(second.retryAfterSeconds, 3600)

  const large = await service
    .check(project, [{ path: 'big.bin', size: 101 }])
    .catch((error: unknown) => error)
  assert.ok(large instanceof ManifestTooLarge)
  assert.equal(large.rule, 'more than 100 bytes in total (--max-deployment-bytes)')

  // A day later the first deployment no longer counts.
  clock.now += 24 * hour + 60_000
  const later = await service.create(project, newDeployment(oneFile('index.mdx', text('# Later\n'))))
  assert.equal(later.deployment.status, 'uploading')
})

test('a large file arrives in ordered chunks; a chunk out of order, past the end or a wrong whole is refused', async (t) => {
  const { app, project, service } = await serviceOf(t)
  const bytes = Buffer.alloc(900, 'z')
  const { deployment } = await service.create(project, newDeployment(oneFile('big.bin', bytes)))
  const file = { sha256: sha256(bytes), size: bytes.length, received: false }
  const refusal = (promise: Promise<unknown>) => promise.catch((error: unknown) => error)

  const pastEnd = await refusal(service.receiveChunk(deployment, file, 800, bytes.subarray(0, 200)))
  assert.ok(pastEnd instanceof ChunkRefused)
  assert.deepEqual([pastEnd.reason, pastEnd.expected], ['past-end', 900])
  assert.deepEqual(await service.receiveChunk(deployment, file, 0, bytes.subarray(0, 400)), {
    received: 400,
    complete: false,
  })
  const outOfOrder = await refusal(service.receiveChunk(deployment, file, 500, bytes.subarray(500)))
  assert.ok(outOfOrder instanceof ChunkRefused)
  assert.deepEqual([outOfOrder.reason, outOfOrder.expected], ['out-of-order', 400])
  const mismatch = await refusal(service.receiveChunk(deployment, file, 400, Buffer.alloc(500, 'y')))
  assert.ok(mismatch instanceof ChunkRefused)
  assert.equal(mismatch.reason, 'hash-mismatch')
  assert.deepEqual(await app.repos.deployments.missingHashes(deployment.id), [file.sha256])

  // The dropped upload starts again from offset 0.
  await service.receiveChunk(deployment, file, 0, bytes.subarray(0, 400))
  assert.deepEqual(await service.receiveChunk(deployment, file, 400, bytes.subarray(400)), {
    received: 900,
    complete: true,
  })
  assert.deepEqual(await app.repos.deployments.missingHashes(deployment.id), [])
  assert.equal(await app.blobs.has(file.sha256), true)
})
