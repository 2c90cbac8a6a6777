import assert from 'node:assert/strict'
import { test } from 'node:test'
import { hashSite } from '../../../cli/push/manifest.js'
import { maxRequestBytes, planUpload, runPool } from '../../../cli/push/upload.js'

const bytes = (size: number, fill: number) => new Uint8Array(size).fill(fill)

test('the manifest lists every path once, sorted, with sha256 and size', () => {
  const site = hashSite(
    new Map([
      ['b.mdx', new TextEncoder().encode('abc')],
      ['a.mdx', new TextEncoder().encode('abc')],
    ]),
  )
  assert.deepEqual(
    site.entries.map((entry) => entry.path),
    ['a.mdx', 'b.mdx'],
  )
  assert.equal(site.entries[0]!.sha256, 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  assert.equal(site.bytesByHash.size, 1)
  assert.equal(site.totalBytes, 6)
})

test('only missing files are planned, packed into requests under the limit, big ones chunked', () => {
  const files = new Map<string, Uint8Array>()
  for (let index = 0; index < 30; index++) files.set(`page-${index}.mdx`, bytes(300_000, index))
  files.set('video.mp4', bytes(9_000_000, 200))
  files.set('unchanged.mdx', bytes(10, 250))
  const site = hashSite(files)
  const missing = site.entries.filter((entry) => entry.path !== 'unchanged.mdx').map((entry) => entry.sha256)
  const plan = planUpload(site, missing)
  assert.equal(plan.files, 31)
  assert.equal(plan.bytes, 30 * 300_000 + 9_000_000)
  assert.deepEqual(
    plan.chunked.map((file) => file.path),
    ['video.mp4'],
  )
  assert.equal(plan.batches.flat().length, 30)
  for (const batch of plan.batches) {
    const size = batch.reduce((sum, file) => sum + file.bytes.byteLength + 200 + 2 * file.path.length, 200)
    assert.ok(size <= maxRequestBytes, `batch of ${size} bytes is over the limit`)
  }
  assert.equal(plan.batches.length, 3)
})

test('a hash the manifest does not hold is refused', () => {
  const site = hashSite(new Map([['a.mdx', bytes(1, 1)]]))
  assert.throws(() => planUpload(site, ['0'.repeat(64)]), /not in this site's manifest/)
})

test('the pool keeps at most N tasks in flight and stops on the first failure', async () => {
  let inFlight = 0
  let peak = 0
  const started: number[] = []
  const tasks = Array.from({ length: 12 }, (_, index) => async () => {
    started.push(index)
    inFlight++
    peak = Math.max(peak, inFlight)
    await new Promise((resolve) => setTimeout(resolve, 5))
    inFlight--
    if (index === 5) throw new Error('batch 5 failed')
  })
  await assert.rejects(runPool(tasks, 3), /batch 5 failed/)
  assert.equal(peak, 3)
  assert.ok(started.length < 12, 'tasks after the failure were not started')
})
