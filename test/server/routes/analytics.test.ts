import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.js'
import { defaultConfig } from '../../../server/config.js'

const key = 'phc_0123456789abcdefghijklmnopqrstuv'

async function setUp(t: { after: (fn: () => Promise<void>) => void }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'analytics-route-'))
  const app: FastifyInstance = await buildApp(defaultConfig({ dataDir }))
  t.after(async () => {
    await app.close()
    await rm(dataDir, { recursive: true, force: true })
  })
  const owner = await app.repos.users.findOrCreate('owner@example.com')
  const stranger = await app.repos.users.findOrCreate('stranger@example.com')
  const project = await app.repos.projects.create({
    ownerId: owner.id,
    slug: 'acme-docs',
    name: 'Acme',
    description: null,
  })
  assert.ok(project)
  const ownerToken = (await app.repos.accessTokens.issue(owner.id, 3600)).token
  const strangerToken = (await app.repos.accessTokens.issue(stranger.id, 3600)).token
  const deployKey = (await app.repos.deployKeys.create(project.id, 'CI')).token
  const call = (method: 'GET' | 'PUT' | 'DELETE', token: string | undefined, payload?: unknown) =>
    app.inject({
      method,
      url: `/projects/${project.id}/analytics`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    })
  return { app, project, ownerToken, strangerToken, deployKey, call }
}

test('set, read and remove PostHog settings; builds read them through the repository', async (t) => {
  const { app, project, ownerToken, call } = await setUp(t)
  assert.deepEqual((await call('GET', ownerToken)).json(), { posthog: null })
  assert.equal(await app.repos.analytics.posthogOf(project.id), undefined)

  const saved = await call('PUT', ownerToken, { provider: 'posthog', key })
  assert.equal(saved.statusCode, 200)
  assert.deepEqual(saved.json(), { posthog: { key, host: 'https://us.i.posthog.com' } })

  const moved = await call('PUT', ownerToken, { provider: 'posthog', key, host: 'https://eu.i.posthog.com/' })
  assert.deepEqual(moved.json(), { posthog: { key, host: 'https://eu.i.posthog.com' } })
  assert.deepEqual(await app.repos.analytics.posthogOf(project.id), {
    key,
    host: 'https://eu.i.posthog.com',
  })

  const removed = await call('DELETE', ownerToken)
  assert.equal(removed.statusCode, 204)
  assert.equal(removed.body, '')
  assert.deepEqual((await call('GET', ownerToken)).json(), { posthog: null })
  assert.equal(await app.repos.analytics.posthogOf(project.id), undefined)
})

test('the server repeats the client checks on key and host', async (t) => {
  const { ownerToken, call } = await setUp(t)
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [{ provider: 'posthog', key: 'phx_0123456789abcdefghijklmnopqrstuv' }, 'key', /personal API key/],
    [{ provider: 'posthog', key: 'abc_0123456789abcdefghijklmnopqrstuv' }, 'key', /starts with "phc_"/],
    [{ provider: 'posthog', key: 'phc_short' }, 'key', /at least 24 characters/],
    [{ provider: 'posthog', key, host: 'http://us.i.posthog.com' }, 'host', /https:\/\//],
    [{ provider: 'posthog', key, host: 'not a url' }, 'host', /not a URL/],
    // A Content-Security-Policy source list ends at ";": a host must be an origin and nothing else.
    [
      { provider: 'posthog', key, host: "https://x/;script-src-attr 'unsafe-inline'" },
      'host',
      /without a path/,
    ],
    [{ provider: 'posthog', key, host: 'https://x;script-src-attr' }, 'host', /only letters, digits/],
    [{ provider: 'posthog', key, host: "https://x'unsafe-inline'.com" }, 'host', /only letters, digits/],
    [{ provider: 'posthog', key, host: 'https://eu.i.posthog.com/ingest' }, 'host', /origin without a path/],
    [{ provider: 'posthog', key, host: 'https://eu.i.posthog.com/?' }, 'host', /no credentials, query/],
    [{ provider: 'posthog', key, host: 'https://user@eu.i.posthog.com' }, 'host', /no credentials/],
    [{ provider: 'posthog', key, host: 'http://posthog.internal' }, 'host', /http:\/\/ only on localhost/],
    [{ provider: 'posthog', key, host: 'javascript:alert(1)' }, 'host', /https:\/\//],
  ]
  for (const [payload, path, message] of cases) {
    const response = await call('PUT', ownerToken, payload)
    assert.equal(response.statusCode, 400, JSON.stringify(payload))
    const body = response.json() as { error: string; issues: { path: string; message: string }[] }
    assert.equal(body.issues[0]?.path, path)
    assert.match(body.issues[0]!.message, message)
  }
  const bodyOf = async (host: string) =>
    (await call('PUT', ownerToken, { provider: 'posthog', key, host })).json()
  assert.deepEqual(await bodyOf('http://localhost:8010/'), {
    posthog: { key, host: 'http://localhost:8010' },
  })
  assert.deepEqual(await bodyOf('HTTPS://EU.i.PostHog.com:443'), {
    posthog: { key, host: 'https://eu.i.posthog.com' },
  })
  const unknownProvider = await call('PUT', ownerToken, { provider: 'matomo', key })
  assert.equal(unknownProvider.statusCode, 400)
  const extra = await call('PUT', ownerToken, { provider: 'posthog', key, secret: 'x' })
  assert.equal(extra.statusCode, 400)
})

test('only the owner reaches the settings: 401 anonymous, 404 another user, 403 a deploy key', async (t) => {
  const { strangerToken, deployKey, call } = await setUp(t)
  for (const method of ['GET', 'PUT', 'DELETE'] as const) {
    const payload = method === 'PUT' ? { provider: 'posthog', key } : undefined
    assert.equal((await call(method, undefined, payload)).statusCode, 401, method)
    assert.equal((await call(method, 'dsa_not-a-real-token', payload)).statusCode, 401, method)
    assert.equal((await call(method, strangerToken, payload)).statusCode, 404, method)
    assert.equal((await call(method, deployKey, payload)).statusCode, 403, method)
  }
})
