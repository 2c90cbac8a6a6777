/**
 * Three docs-server replicas on one PostgreSQL schema and one S3 bucket (s3rver, started here), each
 * with its own data folder and port: a push through one is read through the
 * others; a promotion through one reaches the others within a second; concurrent pushes over all of
 * them each build once; a replica killed mid-build has its build finished by another; and cutting every
 * replica's database connections under read load crashes none, keeps reads answering and /ready
 * recovers.
 *
 * `npm run test:scale` runs it with a longer read load and a bigger site (DOCS_SCALE=full); the slow tier
 * (`npm run test:slow`, which CI runs after `npm test`) runs the short setting. `npm test` keeps two
 * replicas behind Varnish (test/edge/varnish.test.ts) and the replicas walkthrough
 * (test/e2e/docs-replicas.test.ts).
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, test } from 'node:test'
import pg from 'pg'
import { startS3Server } from '../server/blobs/s3-server.js'
import { dropSchema, postgresUrl } from '../server/helper.js'
import {
  operatorToken,
  push,
  type Replica,
  type ReplicaSettings,
  siteSaying,
  startReplica,
  stopReplica,
} from './replicas.js'

const full = process.env.DOCS_SCALE === 'full'
const readLoadMs = full ? 10_000 : 2_000
const bigSitePages = full ? 300 : 20

const afterAll: (() => Promise<void>)[] = []
after(async () => {
  for (const step of afterAll.reverse()) await step()
})

/** Tags this run's connections, so only they are cut (other tests share the server). */
const applicationName = `docs-scale-${randomBytes(4).toString('hex')}`
let settings: ReplicaSettings
const replicas: Replica[] = []
let token = ''
let admin: pg.Client

before(async () => {
  admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  afterAll.push(() => admin.end())
  // A fresh schema for this run, dropped afterwards.
  const databaseSchema = `scale_${randomBytes(6).toString('hex')}`
  await admin.query(`create schema ${databaseSchema}`)
  afterAll.push(async () => void (await dropSchema(admin, databaseSchema)))
  const s3 = await startS3Server({ after: (fn) => afterAll.push(fn) })
  const separator = postgresUrl.includes('?') ? '&' : '?'
  settings = {
    databaseUrl: `${postgresUrl}${separator}application_name=${applicationName}`,
    databaseSchema,
    blobStoreArgs: s3.args('scale'),
    extraArgs: ['--build-lease', '2'],
  }
  const started = performance.now()
  // The first runs the migrations; the others start together.
  replicas.push(await startReplica('r1', settings))
  replicas.push(...(await Promise.all([startReplica('r2', settings), startReplica('r3', settings)])))
  afterAll.push(async () => {
    for (const replica of replicas) await stopReplica(replica)
  })
  process.stdout.write(`# three replicas ready in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
  token = await operatorToken(settings, 'scale@example.com')
})

const [r1, r2, r3] = [0, 1, 2].map(
  (index) =>
    new Proxy({} as Replica, {
      get: (_target, key) => Reflect.get(replicas[index] as Replica, key),
    }),
) as [Replica, Replica, Replica]

async function createProject(replica: Replica, slug: string): Promise<void> {
  const created = await replica.api('POST', '/projects/', token, { name: slug, slug })
  assert.equal(created.status, 201, created.text())
}

/** Wait until `check` passes, polling every `everyMs`; answers the milliseconds it took. */
async function until(check: () => Promise<boolean>, timeoutMs: number, everyMs = 10): Promise<number> {
  const started = performance.now()
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
  return performance.now() - started
}

const says = async (replica: Replica, slug: string, marker: string) => {
  const page = await replica.site(slug)
  return page.status === 200 && page.text().includes(`The marker is ${marker}.`)
}

test('a push through replica 1 is read through replicas 2 and 3', async () => {
  await createProject(r1, 'alpha')
  const pushed = await push(r1, token, 'alpha', siteSaying('alpha-one'))
  assert.equal(pushed.finalized.status, 200, pushed.finalized.text())
  for (const replica of [r2, r3]) assert.ok(await says(replica, 'alpha', 'alpha-one'), replica.name)
})

test('a promotion through replica 2 is served by replicas 1 and 3 within a second', async (t) => {
  const next = await push(r1, token, 'alpha', siteSaying('alpha-two'), { promote: false })
  assert.equal(next.finalized.status, 200, next.finalized.text())
  // Every replica has the live site resolved and cached.
  for (const replica of [r1, r2, r3]) assert.ok(await says(replica, 'alpha', 'alpha-one'), replica.name)
  const started = performance.now()
  const promoted = await r2.api('POST', `/projects/slug/alpha/deployments/${next.id}/promote`, token)
  assert.equal(promoted.status, 200, promoted.text())
  const seen = await Promise.all(
    [r1, r3].map(async (replica) => {
      await until(() => says(replica, 'alpha', 'alpha-two'), 20_000, 5)
      return performance.now() - started
    }),
  )
  t.diagnostic(
    `promotion through r2 served by r1 after ${seen[0]?.toFixed(0)} ms, by r3 after ${seen[1]?.toFixed(0)} ms`,
  )
  // A cached answer is otherwise refreshed only after 30 s: seeing it this soon is the announcement.
  for (const ms of seen) assert.ok(ms < 10_000, `${ms.toFixed(0)} ms`)
})

test('20 concurrent pushes to 10 projects over the replicas: each built once, the newest of each live', async (t) => {
  const slugs = Array.from({ length: 10 }, (_, index) => `load-${index}`)
  for (const slug of slugs) await createProject(r1, slug)
  const started = performance.now()
  const pushes = await Promise.all(
    Array.from({ length: 20 }, async (_, index) => {
      const slug = slugs[index % 10] as string
      const replica = replicas[index % 3] as Replica
      // The second push of a project starts a moment later, so it is the newer one.
      if (index >= 10) await new Promise((resolve) => setTimeout(resolve, 50))
      const pushed = await push(replica, token, slug, siteSaying(`push-${index}`))
      return { index, slug, ...pushed }
    }),
  )
  t.diagnostic(`20 pushes answered in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  let superseded = 0
  for (const pushed of pushes) {
    const body = pushed.finalized.json<{ live?: boolean; deployment?: { diagnostics: { rule: string }[] } }>()
    if (pushed.finalized.status === 422) {
      assert.equal(body.deployment?.diagnostics[0]?.rule, 'build-superseded', pushed.finalized.text())
      superseded++
    } else assert.equal(pushed.finalized.status, 200, pushed.finalized.text())
  }
  const jobs = await admin.query<{ deployment_id: string; status: string; attempts: number }>(
    `select deployment_id, status, attempts from ${settings.databaseSchema}.build_jobs where deployment_id = any($1)`,
    [pushes.map((pushed) => pushed.id)],
  )
  for (const job of jobs.rows) {
    assert.equal(job.status, 'done')
    assert.equal(job.attempts, 1, `${job.deployment_id} was leased once`)
  }
  assert.equal(jobs.rows.length + superseded, 20, 'every push either built once or was superseded unbuilt')
  t.diagnostic(
    `${20 - superseded} built once and went live, ${superseded} superseded by a newer push before building`,
  )
  for (const slug of slugs) {
    const schema = settings.databaseSchema
    const newestRow = await admin.query<{ id: string }>(
      `select d.id from ${schema}.deployments d join ${schema}.projects p on p.id = d.project_id
       where p.slug = $1 order by d.created_at desc, d.id desc limit 1`,
      [slug],
    )
    const newest = pushes.find((pushed) => pushed.id === newestRow.rows[0]?.id)
    assert.ok(newest)
    for (const replica of replicas)
      assert.ok(await says(replica, slug, `push-${newest.index}`), `${slug} on ${replica.name}`)
    const promotions = await admin.query(
      `select c.id from ${schema}.site_changes c join ${schema}.projects p on p.id = c.project_id where p.slug = $1`,
      [slug],
    )
    const built = pushes.filter((pushed) => pushed.slug === slug && pushed.finalized.status === 200).length
    const count = promotions.rowCount ?? 0
    assert.ok(count >= 1 && count <= built, `${slug}: ${count} promotions for ${built} builds`)
  }
})

test('the replica holding a build lease is killed mid-build; another replica finishes the build', async (t) => {
  await createProject(r1, 'beta')
  const target = replicas[0] as Replica
  const pushed = await push(target, token, 'beta', siteSaying('beta-big', bigSitePages), { waitSeconds: 0 })
  assert.equal(pushed.finalized.status, 202, pushed.finalized.text())
  const job = async () =>
    (
      await admin.query<{ status: string; lease_owner: string | null; attempts: number }>(
        `select status, lease_owner, attempts from ${settings.databaseSchema}.build_jobs where deployment_id = $1`,
        [pushed.id],
      )
    ).rows[0]
  await until(async () => (await job())?.status === 'leased', 10_000)
  const holderPid = Number((await job())?.lease_owner?.split(':')[1])
  const holder = replicas.find((replica) => replica.process.pid === holderPid)
  assert.ok(holder, `the lease holder ${holderPid} is one of the replicas`)
  holder.process.kill('SIGKILL')
  await holder.exited
  const killedAt = performance.now()
  const atKill = await job()
  assert.equal(atKill?.status, 'leased', 'killed while building (make the site bigger if this fails)')
  t.diagnostic(`killed ${holder.name} holding the lease of a ${bigSitePages}-page build`)

  const other = replicas.find((replica) => replica !== holder) as Replica
  await until(
    async () => {
      const answer = await other.api('GET', `/projects/slug/beta/deployments/${pushed.id}`, token)
      return answer.json().status !== 'building'
    },
    60_000,
    100,
  )
  const finished = await job()
  t.diagnostic(
    `another replica finished it ${((performance.now() - killedAt) / 1000).toFixed(1)} s after the kill (lease 2 s), attempt ${finished?.attempts}`,
  )
  const record = (await other.api('GET', `/projects/slug/beta/deployments/${pushed.id}`, token)).json()
  assert.equal(record.status, 'ready')
  assert.equal(record.live, true)
  assert.equal(finished?.status, 'done')
  assert.equal(finished?.attempts, 2)
  assert.notEqual(finished?.lease_owner?.split(':')[1], String(holderPid))
  for (const replica of replicas.filter((replica) => replica !== holder))
    assert.ok(await says(replica, 'beta', 'beta-big'), replica.name)

  // Back on its port and folder, as an orchestrator would restart it.
  const index = replicas.indexOf(holder)
  replicas[index] = await startReplica(holder.name, settings, { port: holder.port, dataDir: holder.dataDir })
})

test("cutting every replica's database connections under read load: none exits, reads answer, /ready recovers", async (t) => {
  // Every replica has resolved the site (and cached its answer) before the cut.
  for (const replica of replicas) assert.ok(await says(replica, 'alpha', 'alpha-two'), replica.name)
  const statuses = new Map<number, number>()
  let reads = 0
  let stop = false
  const load = replicas.map(async (replica) => {
    while (!stop) {
      const page = await replica.site('alpha').catch(() => undefined)
      const status = page?.status ?? 0
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      reads++
    }
  })
  const cut = async () =>
    (
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
        [applicationName],
      )
    ).rowCount ?? 0
  await new Promise((resolve) => setTimeout(resolve, readLoadMs / 4))
  let terminated = await cut()
  await new Promise((resolve) => setTimeout(resolve, readLoadMs / 4))
  terminated += await cut()
  await new Promise((resolve) => setTimeout(resolve, readLoadMs / 2))
  stop = true
  await Promise.all(load)
  t.diagnostic(
    `terminated ${terminated} connections; ${reads} reads: ${JSON.stringify(Object.fromEntries(statuses))}`,
  )
  assert.ok(terminated >= 3, 'at least each replica’s listening connection was cut')
  for (const replica of replicas)
    assert.equal(
      replica.process.exitCode,
      null,
      `${replica.name} still runs:\n${replica.output().slice(-3000)}`,
    )
  assert.deepEqual([...statuses.keys()], [200], 'every read answered 200')

  const recovered = await Promise.all(
    replicas.map((replica) =>
      until(
        async () => {
          const ready = await replica.site('alpha').then(() => replica.api('GET', '/ready', token))
          return ready.status === 200 && ready.json().changes === 'listening'
        },
        30_000,
        50,
      ),
    ),
  )
  t.diagnostic(`/ready 200 and listening again after ${recovered.map((ms) => ms.toFixed(0)).join(', ')} ms`)
  // The announcements work again: a promotion through r3 reaches r1.
  const next = await push(r3, token, 'alpha', siteSaying('alpha-three'))
  assert.equal(next.finalized.status, 200, next.finalized.text())
  await until(() => says(r1, 'alpha', 'alpha-three'), 10_000)
  for (const replica of replicas) assert.doesNotMatch(replica.output(), /Unhandled 'error' event/)
})
