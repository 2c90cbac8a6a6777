/**
 * Retention and garbage collection on the S3 store, end to end: 10 pushes of a changing 30-page site
 * (two of them previews, one between kept deployments), then a dry run and a real run. Every kept
 * deployment still serves every page with the right content; the bucket holds exactly what the kept deployments reference; a push
 * made while the collection runs keeps the old blobs it reuses.
 */
import assert from 'node:assert/strict'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { after, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import type { S3BlobStore } from '../../../server/blobs/s3.js'
import type { BlobStore, StoredBlob } from '../../../server/blobs/store.js'
import { readSiteManifest } from '../../../server/builds/site-manifest-store.js'
import { GarbageCollector } from '../../../server/gc/collector.js'
import { startS3Server } from '../blobs/s3-server.js'
import { appWithProject, bearer, createAndUpload, deploy, sha256 } from '../helper.js'

// Enough pushes that retention has live deployments, previews and expired ones on both sides of the
// kept five; DOCS_GC_TEST_PAGES and DOCS_GC_TEST_PUSHES scale it up by hand.
const sitePages = Number(process.env.DOCS_GC_TEST_PAGES ?? 30)
const pushes = Number(process.env.DOCS_GC_TEST_PUSHES ?? 10)
const previews = new Set([3, pushes - 2])
const keepDeployments = 5

/** The site as of push `version`: push k rewrites ten pages, so pages differ in which push wrote them. */
function site(
  version: number,
  pages = sitePages,
): { files: Map<string, Uint8Array>; versionOf: (page: number) => number } {
  const versionOf = (page: number) => {
    for (let push = version; push >= 1; push--) if ((page - push * 7 + pages * 10) % pages < 10) return push
    return 0
  }
  const names = Array.from({ length: pages }, (_, index) => `p${String(index).padStart(3, '0')}`)
  const files = new Map<string, Uint8Array>()
  files.set(
    'docs.json',
    Buffer.from(
      JSON.stringify({
        name: 'GC Docs',
        slug: 'gc-docs',
        navigation: { groups: [{ group: 'Pages', pages: names }] },
      }),
    ),
  )
  for (const [index, name] of names.entries()) {
    const body = `---\ntitle: Page ${index}\n---\n\nPage ${index} at version ${versionOf(index)}.\n`
    files.set(`${name}.mdx`, Buffer.from(body))
  }
  return { files, versionOf }
}

async function folderBytes(folder: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size
  }
  return total
}

/** Every blob a deployment needs: sources, built files and variants, manifest, build cache. */
async function referenced(app: FastifyInstance, deploymentIds: readonly string[]): Promise<Set<string>> {
  const needed = new Set<string>()
  for (const id of deploymentIds) {
    const row = await app.repos.deployments.findById(id)
    assert.ok(row)
    for (const file of await app.repos.deployments.files(id)) needed.add(file.sha256)
    if (row.build_cache_sha256) needed.add(row.build_cache_sha256)
    if (!row.site_manifest_sha256) continue
    needed.add(row.site_manifest_sha256)
    const { manifest, parts } = (await readSiteManifest(app.blobs, row.site_manifest_sha256))!
    for (const part of parts) needed.add(part)
    for (const entry of Object.values(manifest.files)) {
      needed.add(entry.sha256)
      if (entry.br) needed.add(entry.br.sha256)
      if (entry.gzip) needed.add(entry.gzip.sha256)
    }
  }
  return needed
}

const s3 = await startS3Server({ after })

test('gc keeps the live and last N live deployments and young ones, and deletes everything else', async (t) => {
  const { app, token, project } = await appWithProject(t, 'gc-docs', 'sqlite', {
    ...(process.env.GC_FS ? {} : { blobStore: s3.blobStore('gc') }),
  })
  const pages = sitePages
  const requests = new Map<string, number>()
  if ('client' in app.blobs) {
    ;(app.blobs as S3BlobStore).client.middlewareStack.add(
      (next, context) => (args) => {
        requests.set(String(context.commandName), (requests.get(String(context.commandName)) ?? 0) + 1)
        return next(args)
      },
      { step: 'initialize' },
    )
  }
  const started = performance.now()
  const deployments: { id: string; version: number; previewHost: string }[] = []
  for (let version = 1; version <= pushes; version++) {
    const pushed = await deploy(app, token, 'gc-docs', site(version).files, {
      promote: !previews.has(version),
    })
    assert.equal(pushed.finalized.statusCode, 200, pushed.finalized.body)
    const previewHost = new URL((pushed.finalized.json() as { previewUrl: string }).previewUrl).host
    deployments.push({ id: pushed.id, version, previewHost })
  }
  t.diagnostic(`${pushes} pushes of ${pages} pages in ${Math.round(performance.now() - started)} ms`)
  t.diagnostic(`S3 requests for them: ${JSON.stringify(Object.fromEntries(requests))}`)

  const gc = new GarbageCollector(app.repos, app.blobs, {
    keepDeployments,
    keepAgeSeconds: 0,
    graceSeconds: 0,
  })
  const purged: string[] = []
  gc.onDeploymentsDeleted = (deleted) => purged.push(...deleted.map((deployment) => deployment.id))
  const usage = async () => ({ bucket: await s3.usage('gc'), disk: await folderBytes(app.config.dataDir) })
  const before = await usage()

  const dry = await gc.run({ dryRun: true })
  assert.deepEqual((await usage()).bucket, before.bucket, 'a dry run deletes nothing')
  assert.deepEqual(purged, [])

  const report = await gc.run()
  const after = await usage()
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`
  t.diagnostic(
    `bucket before: ${before.bucket.objects} objects, ${mb(before.bucket.bytes)}; after: ${after.bucket.objects} objects, ${mb(after.bucket.bytes)}`,
  )
  t.diagnostic(`data dir (SQLite + read cache) before: ${mb(before.disk)}; after: ${mb(after.disk)}`)
  t.diagnostic(
    `gc deleted ${report.deployments.length} deployments and ${report.blobsDeleted} blobs (${mb(report.bytesFreed)}) in ${report.durationMs} ms`,
  )
  assert.deepEqual(
    { deployments: report.deployments, blobs: report.blobsDeleted, bytes: report.bytesFreed },
    { deployments: dry.deployments, blobs: dry.blobsDeleted, bytes: dry.bytesFreed },
    'the dry run said what the run did',
  )

  // Kept: the live deployment (the last push) and the 4 before it that were live; both previews expired.
  const kept = deployments.filter((deployment) => !previews.has(deployment.version)).slice(-keepDeployments)
  assert.ok(
    deployments.some(
      (deployment) => deployment.version < (kept[0]?.version ?? 0) && !previews.has(deployment.version),
    ),
    'older live deployments are there to delete',
  )
  const keptIds = kept.map((deployment) => deployment.id)
  const remaining = (await app.repos.deployments.list(project.id, 100)).deployments
  assert.deepEqual(remaining.map((row) => row.id).sort(), [...keptIds].sort())
  assert.deepEqual(
    purged.sort(),
    deployments
      .filter((d) => !keptIds.includes(d.id))
      .map((d) => d.id)
      .sort(),
  )
  assert.equal(after.bucket.bytes, before.bucket.bytes - report.bytesFreed)
  assert.ok(after.bucket.bytes < before.bucket.bytes)

  // Nothing else remains: the bucket holds exactly what the kept deployments reference.
  const stored = new Set<string>()
  for await (const blob of app.blobs.list()) stored.add(blob.sha256)
  assert.deepEqual([...stored].sort(), [...(await referenced(app, keptIds))].sort())

  // Every kept deployment serves every page, with its own version of it, at its preview host.
  for (const deployment of kept) {
    const { versionOf } = site(deployment.version)
    for (let index = 0; index < pages; index++) {
      const page = await app.inject({
        url: `/p${String(index).padStart(3, '0')}/`,
        headers: { host: deployment.previewHost },
      })
      assert.equal(page.statusCode, 200, `${deployment.id} p${index}`)
      assert.ok(
        page.body.includes(`Page ${index} at version ${versionOf(index)}.`),
        `${deployment.id} p${index}`,
      )
    }
  }
  const live = await app.inject({ url: '/p000/', headers: { host: 'gc-docs.localhost:8080' } })
  assert.ok(live.body.includes(`at version ${site(pushes).versionOf(0)}.`))
  for (const gone of deployments.filter((deployment) => !keptIds.includes(deployment.id)).slice(-3)) {
    const page = await app.inject({ url: '/p000/', headers: { host: gone.previewHost } })
    assert.equal(page.statusCode, 404, 'a deleted deployment no longer has a preview')
  }

  // A second run finds nothing more to free.
  const again = await gc.run()
  assert.deepEqual([again.deployments.length, again.blobsDeleted], [0, 0])
})

test('a push made while gc runs keeps the unreferenced blobs it reuses (the generation check)', async (t) => {
  const { app, token } = await appWithProject(t, 'gc-docs', 'sqlite', { blobStore: s3.blobStore('race') })
  const old = site(1, 20).files
  const first = await deploy(app, token, 'gc-docs', old)
  assert.equal(first.finalized.statusCode, 200)
  for (const version of [2, 3])
    assert.equal((await deploy(app, token, 'gc-docs', site(version, 20).files)).finalized.statusCode, 200)
  // Between listing the store and sweeping it, a rollback-by-push re-creates version 1.
  let created: { id: string } | undefined
  const store = app.blobs
  const racing: BlobStore = {
    has: (sha) => store.has(sha),
    touch: (sha) => store.touch(sha),
    get: (sha) => store.get(sha),
    stream: (sha) => store.stream(sha),
    put: (bytes) => store.put(bytes),
    putStream: (source, options) => store.putStream(source, options),
    appendChunk: (key, offset, bytes) => store.appendChunk(key, offset, bytes),
    completeChunks: (key, sha) => store.completeChunks(key, sha),
    sweepUploads: (options) => store.sweepUploads(options),
    delete: (shas) => store.delete(shas),
    check: () => store.check(),
    close: () => store.close(),
    list: async function* (): AsyncIterable<StoredBlob> {
      yield* store.list()
      created = (await createAndUpload(app, token, 'gc-docs', old)).deployment
    },
  }
  const gc = new GarbageCollector(app.repos, racing, {
    keepDeployments: 2,
    keepAgeSeconds: 0,
    graceSeconds: 0,
  })
  const report = await gc.run()
  assert.deepEqual(
    report.deployments.map((deployment) => deployment.id),
    [first.id],
  )
  assert.ok(created)
  for (const [path, bytes] of old) assert.equal(await app.blobs.has(sha256(bytes)), true, `${path} is kept`)
  const finalized = await app.inject({
    method: 'POST',
    url: `/projects/slug/gc-docs/deployments/${created.id}/finalize`,
    headers: bearer(token),
    payload: {},
  })
  assert.equal(finalized.statusCode, 200, finalized.body)
})
