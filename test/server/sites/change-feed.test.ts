/**
 * Two replicas in one process on one PostgreSQL schema: a promotion through one reaches the other's
 * cached Host answer at once, and still does after every connection of the other was cut (it catches
 * up from `site_changes` while it reconnects) — without an unhandled 'error' ending the process.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { test } from 'node:test'
import pg from 'pg'
import { buildApp } from '../../../server/app.js'
import { needs } from '../../tier.js'
import { bearer, createProject, postgresUrl, signIn, testConfig } from '../helper.js'
import { page, publish } from './publish.js'

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now()
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return performance.now() - started
}

test('a promotion on one replica reaches the other at once, also after its connections were cut', {
  skip: needs('PostgreSQL'),
}, async (t) => {
  const first = await testConfig(t, 'postgres')
  const applicationName = `docs-feed-${randomBytes(4).toString('hex')}`
  const other = await testConfig(t, 'sqlite')
  const one = await buildApp(first)
  t.after(() => one.close())
  const two = await buildApp({
    ...first,
    dataDir: other.dataDir,
    databaseUrl: `${postgresUrl}${postgresUrl.includes('?') ? '&' : '?'}application_name=${applicationName}`,
  })
  t.after(() => two.close())
  await two.ready()
  const token = await signIn(one)
  const project = await createProject(one, token, 'shared')
  const live = await publish(one, 'shared', { 'index.html': page('One') })
  const host = 'shared.localhost:8080'
  const servedBy = (app: typeof two) => app.sites.hosts.peek(host)?.[0]?.deploymentId
  const resolved = await two.sites.hosts.resolve(host)
  assert.ok('targets' in resolved && resolved.targets[0]?.deploymentId === live.deploymentId)

  const promote = async (deploymentId: string) => {
    const response = await one.inject({
      method: 'POST',
      url: `/projects/slug/shared/deployments/${deploymentId}/promote`,
      headers: bearer(token),
    })
    assert.equal(response.statusCode, 200, response.body)
  }
  const second = await publish(one, 'shared', { 'index.html': page('Two') }, false)
  await promote(second.deploymentId)
  const notified = await until(() => servedBy(two) !== live.deploymentId, 5000)
  t.diagnostic(`the other replica dropped its cached answer ${notified.toFixed(0)} ms after the promotion`)
  await two.sites.hosts.resolve(host)
  assert.equal(servedBy(two), second.deploymentId)

  const admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  t.after(() => admin.end())
  const cut = await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
    [applicationName],
  )
  assert.ok((cut.rowCount ?? 0) >= 1, 'its listening connection was cut')
  const third = await publish(one, 'shared', { 'index.html': page('Three') }, false)
  await promote(third.deploymentId)
  const caughtUp = await until(async () => {
    if (servedBy(two) === undefined) await two.sites.hosts.resolve(host)
    return servedBy(two) === third.deploymentId
  }, 10_000)
  t.diagnostic(`after the cut it saw the next promotion within ${caughtUp.toFixed(0)} ms`)
  await until(async () => (await two.inject({ url: '/ready' })).json().changes === 'listening', 10_000)
  // Its pool opened fresh connections: the API answers again.
  const projects = await two.inject({ url: `/projects/${project.id}`, headers: bearer(token) })
  assert.equal(projects.statusCode, 200, projects.body)
})
