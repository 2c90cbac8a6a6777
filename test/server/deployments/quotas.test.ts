import assert from 'node:assert/strict'
import { test } from 'node:test'
import { defaultConfig, loadConfig } from '../../../server/config.js'
import { bearer, createProject, engines, manifestOf, signIn, testApp } from '../helper.js'

const encode = (value: string) => new TextEncoder().encode(value)
const quotas = (overrides: Partial<ReturnType<typeof defaultConfig>['quotas']>) => ({
  quotas: { ...defaultConfig().quotas, ...overrides },
})

for (const engine of engines) {
  test(`deployments past a project's or user's daily quota answer 429 with the limit (${engine})`, async (t) => {
    const app = await testApp(t, engine, quotas({ projectDeploymentsPerDay: 2, userDeploymentsPerDay: 3 }))
    const token = await signIn(app)
    await createProject(app, token, 'first')
    await createProject(app, token, 'second')
    const create = (slug: string, who = token) =>
      app.inject({
        method: 'POST',
        url: `/projects/slug/${slug}/deployments`,
        headers: bearer(who),
        payload: {
          branch: 'main',
          files: manifestOf(new Map([['index.mdx', encode(`# ${Math.random()}\n`)]])),
        },
      })
    assert.equal((await create('first')).statusCode, 201)
    assert.equal((await create('first')).statusCode, 201)
    const perProject = await create('first')
    assert.equal(perProject.statusCode, 429)
    assert.deepEqual(perProject.json(), {
      error: 'Project "first" created 2 deployments in the last 24 hours, the most allowed; try again later',
      issues: [
        { path: 'body', message: 'at most 2 deployments a day per project (--project-deployments-per-day)' },
      ],
    })
    assert.equal(perProject.headers['retry-after'], '3600')
    assert.equal((await create('second')).statusCode, 201)
    const perUser = await create('second')
    assert.equal(perUser.statusCode, 429)
    assert.match(perUser.json().error, /owner's deployments in the last 24 hours to 4, over the quota/)
    // Another user has a quota of their own.
    const other = await signIn(app, 'other@example.com')
    await createProject(app, other, 'third')
    assert.equal((await create('third', other)).statusCode, 201)
  })
}

test('a deployment over the byte quota answers 413; over the daily file or byte quota 429', async (t) => {
  const app = await testApp(
    t,
    'sqlite',
    quotas({ maxDeploymentBytes: 1000, userFilesPerDay: 3, userBytesPerDay: 1500 }),
  )
  const token = await signIn(app)
  await createProject(app, token, 'sized')
  const create = (files: Map<string, Uint8Array>) =>
    app.inject({
      method: 'POST',
      url: '/projects/slug/sized/deployments',
      headers: bearer(token),
      payload: { branch: 'main', files: manifestOf(files) },
    })
  const tooBig = await create(new Map([['a.bin', new Uint8Array(1001)]]))
  assert.equal(tooBig.statusCode, 413)
  assert.deepEqual(tooBig.json().issues, [
    { path: 'body/files', message: 'more than 1000 bytes in total (--max-deployment-bytes)' },
  ])
  assert.equal((await create(new Map([['a.bin', new Uint8Array(900)]]))).statusCode, 201)
  const bytes = await create(new Map([['b.bin', new Uint8Array(700)]]))
  assert.equal(bytes.statusCode, 429)
  assert.match(bytes.json().error, /owner's bytes in the last 24 hours to 1600, over the quota/)
  const files = await create(
    new Map([
      ['c.txt', encode('c')],
      ['d.txt', encode('d')],
      ['e.txt', encode('e')],
    ]),
  )
  assert.equal(files.statusCode, 429)
  assert.deepEqual(files.json().issues, [
    { path: 'body', message: 'at most 3 files a day per user (--user-files-per-day)' },
  ])
})

test('quotas are server settings: flags and environment variables, checked at start', () => {
  const { config } = loadConfig(['--project-deployments-per-day', '7'], { DOCS_USER_BYTES_PER_DAY: '12345' })
  assert.equal(config.quotas.projectDeploymentsPerDay, 7)
  assert.equal(config.quotas.userBytesPerDay, 12345)
  assert.throws(
    () => loadConfig(['--user-files-per-day', '0']),
    /--user-files-per-day \/ DOCS_USER_FILES_PER_DAY/,
  )
})
