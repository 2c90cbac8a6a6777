import assert from 'node:assert/strict'
import { test } from 'node:test'
import { BuildQueue, type QueuedBuild } from '../../../server/builds/queue.js'

/** A queue whose builds record their order and finish when the test says so. */
function harness(concurrency: number) {
  const order: string[] = []
  const superseded: string[] = []
  const finishers = new Map<string, () => void>()
  const queue = new BuildQueue(concurrency, (error) => {
    throw error
  })
  let clock = 0
  const add = (ownerId: string, projectId: string, deploymentId: string): Promise<void> => {
    const build: QueuedBuild = {
      ownerId,
      projectId,
      deploymentId,
      createdAt: String(++clock).padStart(6, '0'),
      run: () =>
        new Promise<void>((resolve) => {
          order.push(deploymentId)
          finishers.set(deploymentId, resolve)
        }),
      supersede: async (by) => {
        superseded.push(`${deploymentId}<${by}`)
      },
    }
    return queue.enqueue(build)
  }
  const finish = async (deploymentId: string) => {
    finishers.get(deploymentId)?.()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { queue, order, superseded, add, finish }
}

test("another user's push runs next, not behind fifteen of one user's projects", async () => {
  const { order, add, finish } = harness(1)
  for (let index = 0; index < 15; index++) void add('busy', `p${index}`, `busy-${index}`)
  void add('other', 'q', 'other-1')
  assert.deepEqual(order, ['busy-0'])
  await finish('busy-0')
  assert.deepEqual(order, ['busy-0', 'other-1'])
  await finish('other-1')
  assert.deepEqual(order, ['busy-0', 'other-1', 'busy-1'])
})

test('one project builds one deployment at a time; the newest waiting one supersedes older ones', async () => {
  const { queue, order, superseded, add, finish } = harness(2)
  const first = add('u', 'p', 'd1')
  const settled: string[] = []
  const second = add('u', 'p', 'd2').then(() => settled.push('d2'))
  const third = add('u', 'p', 'd3')
  assert.deepEqual(order, ['d1'], 'the second slot is not used by the same project')
  await second
  assert.deepEqual(settled, ['d2'])
  assert.deepEqual(superseded, ['d2<d3'])
  assert.equal(queue.waiting, 1)
  await finish('d1')
  await first
  assert.deepEqual(order, ['d1', 'd3'])
  await finish('d3')
  await third
})

test('projects of one owner take turns, the least recently built first', async () => {
  const { order, add, finish } = harness(1)
  void add('u', 'a', 'a1')
  void add('u', 'b', 'b1')
  await finish('a1')
  void add('u', 'a', 'a2')
  void add('u', 'c', 'c1')
  await finish('b1')
  await finish(order.at(-1)!)
  assert.deepEqual(order, ['a1', 'b1', 'c1', 'a2'])
})
