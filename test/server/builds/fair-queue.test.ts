/**
 * The build queue through the real server: another user's one-page push goes live in seconds behind
 * fifteen queued builds of one user, and a project's newest push supersedes its queued older ones.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bearer, createProject, deploy, fixtureSite, signIn, testApp } from '../helper.js'

const encode = (value: string) => new TextEncoder().encode(value)

const onePage = () =>
  new Map<string, Uint8Array>([
    ['docs.json', encode(JSON.stringify({ name: 'One page', navigation: { pages: ['index'] } }))],
    ['index.mdx', encode('---\ntitle: One page\n---\n\nHello.\n')],
  ])

test("another user's one-page push goes live ahead of 15 queued builds of one user", async (t) => {
  const app = await testApp(t, 'sqlite')
  const busy = await signIn(app, 'busy@example.com')
  const full = await fixtureSite('full')
  const queued: string[] = []
  for (let index = 0; index < 15; index++) {
    await createProject(app, busy, `busy-${index}`)
    const pushed = await deploy(app, busy, `busy-${index}`, full, { waitSeconds: 0 })
    assert.equal(pushed.finalized.statusCode, 202, pushed.finalized.body)
    queued.push(pushed.id)
  }
  const other = await signIn(app, 'other@example.com')
  await createProject(app, other, 'other')
  const started = performance.now()
  const pushed = await deploy(app, other, 'other', onePage())
  const seconds = (performance.now() - started) / 1000
  t.diagnostic(`one-page push behind 15 queued builds went live in ${seconds.toFixed(2)} s`)
  t.diagnostic(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`)
  assert.equal(pushed.finalized.statusCode, 200, pushed.finalized.body)
  assert.equal(pushed.finalized.json().live, true)
  const waiting = await Promise.all(
    queued.map(async (id, index) => {
      const response = await app.inject({
        url: `/projects/slug/busy-${index}/deployments/${id}`,
        headers: bearer(busy),
      })
      return response.json().status as string
    }),
  )
  assert.ok(waiting.filter((status) => status === 'building').length >= 12, waiting.join(' '))
})

test("a project's newest push supersedes its queued older ones, which fail with the reason", async (t) => {
  const app = await testApp(t, 'sqlite')
  const token = await signIn(app)
  await createProject(app, token, 'busy')
  const full = await fixtureSite('full')
  const ids: string[] = []
  for (let index = 0; index < 4; index++) {
    const files = new Map<string, Uint8Array>(full)
    files.set('index.mdx', encode(`---\ntitle: Push ${index}\n---\n\nPush ${index}.\n`))
    ids.push((await deploy(app, token, 'busy', files, { waitSeconds: 0 })).id)
  }
  const last = ids.at(-1)!
  await app.inject({
    method: 'POST',
    url: `/projects/slug/busy/deployments/${last}/finalize`,
    headers: bearer(token),
    payload: { waitSeconds: 60 },
  })
  const records = await Promise.all(
    ids.map(async (id) =>
      (await app.inject({ url: `/projects/slug/busy/deployments/${id}`, headers: bearer(token) })).json(),
    ),
  )
  // The first was already building; the second waited and was replaced by the third, the third by the fourth.
  assert.equal(records[0].status, 'ready')
  for (const [index, record] of records.slice(1, 3).entries()) {
    assert.equal(record.status, 'failed')
    assert.equal(record.live, false)
    assert.deepEqual(record.diagnostics, [
      {
        severity: 'error',
        file: '',
        rule: 'build-superseded',
        message: `Superseded by the newer deployment ${ids[index + 2]} of this project before it was built`,
      },
    ])
  }
  assert.equal(records[3].status, 'ready')
  assert.equal(records[3].live, true)
})
