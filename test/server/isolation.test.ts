/**
 * Isolation, proven as a table: every route of the API (checked against /openapi.json, so a new
 * route without a row fails here) × every kind of caller, with the status each cell must answer.
 * Another user's project is always 404, never 403; a deploy key reaches only the deploy routes of
 * its own project. Each cell that could change something gets fresh resources made by the owner.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { type TestContext, test } from 'node:test'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { defaultConfig } from '../../server/config.js'
import { hashToken } from '../../server/tokens.js'
import { markVerified } from './domains/dns-server.js'
import {
  appWithProject,
  bearer,
  createProject,
  deploy,
  type Engine,
  fixtureSite,
  manifestOf,
  multipartBody,
  sha256,
  signIn,
  sqlEngines,
} from './helper.js'

const actors = [
  'anonymous',
  'bad token',
  'expired token',
  'another user',
  'key of another project',
  'key of this project',
  'owner',
] as const
type Actor = (typeof actors)[number]

/** Who may call a route; the expected status of each actor follows from it. */
type Access = 'anyone' | 'user' | 'project (user only)' | 'project (deploy key too)'

function expectedStatus(access: Access, actor: Actor, ok: number): number {
  if (access === 'anyone') return ok
  if (actor === 'anonymous' || actor === 'bad token' || actor === 'expired token') return 401
  if (access === 'user')
    return actor === 'key of another project' || actor === 'key of this project' ? 403 : ok
  if (actor === 'another user' || actor === 'key of another project') return 404
  if (actor === 'key of this project') return access === 'project (deploy key too)' ? ok : 403
  return ok
}

interface World {
  app: FastifyInstance
  owner: string
  project: { id: string; slug: string }
  site: Map<string, Buffer>
  readyDeploymentId: string
  counter: number
}

type Request = Omit<InjectOptions, 'headers'> & { url: string; headers?: Record<string, string> }

interface RouteCase {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** As /openapi.json spells it. */
  path: string
  access: Access
  ok: number
  request: (world: World) => Promise<Request>
}

/** A row for a route without path parameters: every actor calls the path itself. */
function fixedRoute(
  method: RouteCase['method'],
  path: string,
  access: Access,
  ok: number,
  payload?: object,
): RouteCase {
  return { method, path, access, ok, request: async () => (payload ? { url: path, payload } : { url: path }) }
}

async function newDeployment(
  world: World,
  files: { path: string; sha256: string; size: number }[],
): Promise<string> {
  const response = await world.app.inject({
    method: 'POST',
    url: `/projects/slug/${world.project.slug}/deployments`,
    headers: bearer(world.owner),
    payload: { files },
  })
  assert.equal(response.statusCode, 201, response.body)
  return response.json().deployment.id
}

/** A fresh domain of the owner's project, with a host name no other cell uses. */
async function newDomain(world: World): Promise<string> {
  world.counter += 1
  const row = await world.app.repos.domains.create({
    projectId: world.project.id,
    hostname: `docs-${world.counter}.example.test`,
    pathPrefix: '',
  })
  assert.ok(row)
  return row.id
}

const deploymentsOf = (world: World) => `/projects/slug/${world.project.slug}/deployments`
const fileBytes = Buffer.from('hello isolation\n')
const fileEntry = { path: 'notes.txt', sha256: sha256(fileBytes), size: fileBytes.length }

const routes: RouteCase[] = [
  fixedRoute('GET', '/health', 'anyone', 200),
  fixedRoute('GET', '/ready', 'anyone', 200),
  // Off without --metrics-token, for every caller; with it, only that token (test/server/ops/metrics.test.ts).
  fixedRoute('GET', '/metrics', 'anyone', 404),
  {
    method: 'GET',
    path: '/schemas/{name}',
    access: 'anyone',
    ok: 200,
    request: async () => ({ url: '/schemas/docs.schema.json' }),
  },
  fixedRoute('GET', '/.well-known/oauth-authorization-server', 'anyone', 200),
  // The sign-in flow itself: a bearer token neither helps nor hurts.
  fixedRoute('GET', '/oauth/authorize', 'anyone', 400),
  fixedRoute('GET', '/oauth/callback', 'anyone', 400),
  fixedRoute('GET', '/oauth/sign-in', 'anyone', 400),
  fixedRoute('POST', '/oauth/sign-in', 'anyone', 400, { request: 'unknown', csrf: 'x', email: 'a@b.co' }),
  fixedRoute('POST', '/oauth/token', 'anyone', 400, { grant_type: 'refresh_token', refresh_token: 'dsr_x' }),
  {
    method: 'POST',
    path: '/oauth/revoke',
    access: 'anyone',
    ok: 200,
    request: async () => ({ url: '/oauth/revoke', payload: { token: 'dsr_unknown' } }),
  },
  // The dashboard's pages answer the session cookie only: with a bearer token (or none) they show the
  // sign-in page, so they reveal nothing to anyone. Its data comes from the routes below, checked here.
  fixedRoute('GET', '/', 'anyone', 302),
  fixedRoute('GET', '/dashboard', 'anyone', 302),
  fixedRoute('GET', '/dashboard/', 'anyone', 200),
  fixedRoute('GET', '/dashboard/sign-in', 'anyone', 302),
  fixedRoute('GET', '/dashboard/callback', 'anyone', 400),
  {
    method: 'GET',
    path: '/dashboard/assets/{file}',
    access: 'anyone',
    ok: 200,
    request: async () => ({ url: '/dashboard/assets/dashboard.css' }),
  },
  ...(['', '/settings', '/domains', '/git', '/insights'] as const).map(
    (page): RouteCase => ({
      method: 'GET',
      path: `/dashboard/projects/{projectId}${page}`,
      access: 'anyone',
      ok: 200,
      request: async (world) => ({ url: `/dashboard/projects/${world.project.id}${page}` }),
    }),
  ),
  {
    method: 'GET',
    path: '/dashboard/projects/{projectId}/deployments/{deploymentId}',
    access: 'anyone',
    ok: 200,
    request: async (world) => ({
      url: `/dashboard/projects/${world.project.id}/deployments/${world.readyDeploymentId}`,
    }),
  },
  fixedRoute('POST', '/dashboard/sign-out', 'user', 204),
  { method: 'GET', path: '/me', access: 'user', ok: 200, request: async () => ({ url: '/me' }) },
  fixedRoute('GET', '/projects/', 'user', 200),
  {
    method: 'POST',
    path: '/projects/',
    access: 'user',
    ok: 201,
    request: async (world) => {
      world.counter += 1
      return { url: '/projects/', payload: { name: 'New', slug: `new-project-${world.counter}` } }
    },
  },
  {
    method: 'GET',
    path: '/projects/{projectId}',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({ url: `/projects/${world.project.id}` }),
  },
  {
    method: 'PATCH',
    path: '/projects/{projectId}',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({ url: `/projects/${world.project.id}`, payload: { description: 'changed' } }),
  },
  {
    method: 'GET',
    path: '/projects/slug/{slug}',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({ url: `/projects/slug/${world.project.slug}` }),
  },
  {
    method: 'GET',
    path: '/projects/{projectId}/analytics',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({ url: `/projects/${world.project.id}/analytics` }),
  },
  {
    method: 'PUT',
    path: '/projects/{projectId}/analytics',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({
      url: `/projects/${world.project.id}/analytics`,
      payload: { provider: 'posthog', key: `phc_${'a'.repeat(40)}` },
    }),
  },
  {
    method: 'DELETE',
    path: '/projects/{projectId}/analytics',
    access: 'project (user only)',
    ok: 204,
    request: async (world) => ({ url: `/projects/${world.project.id}/analytics` }),
  },
  {
    method: 'GET',
    path: '/projects/{projectId}/insights',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({ url: `/projects/${world.project.id}/insights` }),
  },
  {
    method: 'GET',
    path: '/projects/{projectId}/insights.csv',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({ url: `/projects/${world.project.id}/insights.csv` }),
  },
  {
    method: 'PUT',
    path: '/projects/{projectId}/insights/settings',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({
      url: `/projects/${world.project.id}/insights/settings`,
      payload: { enabled: true },
    }),
  },
  {
    method: 'GET',
    path: '/projects/{projectId}/git',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({ url: `/projects/${world.project.id}/git` }),
  },
  {
    method: 'PUT',
    path: '/projects/{projectId}/git',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({
      url: `/projects/${world.project.id}/git`,
      payload: { provider: 'gitlab', repositoryUrl: 'https://gitlab.com/acme/docs.git' },
    }),
  },
  {
    method: 'DELETE',
    path: '/projects/{projectId}/git',
    access: 'project (user only)',
    ok: 204,
    request: async (world) => {
      // A fresh connection for each cell: only the owner's call removes it.
      await world.app.repos.git.connect(world.project.id, {
        provider: 'gitlab',
        repositoryUrl: 'https://gitlab.example.com/acme/docs.git',
        productionBranch: 'main',
        docsDirectory: null,
        previewBranches: [],
      })
      return { url: `/projects/${world.project.id}/git` }
    },
  },
  // Webhooks take no bearer token: whoever calls, an unsigned delivery is refused.
  fixedRoute('POST', '/webhooks/github', 'anyone', 401, { ref: 'refs/heads/main' }),
  {
    method: 'POST',
    path: '/webhooks/gitlab/{projectId}',
    access: 'anyone',
    ok: 401,
    request: async (world) => ({
      url: `/webhooks/gitlab/${world.project.id}`,
      payload: { object_kind: 'push' },
    }),
  },
  {
    method: 'POST',
    path: '/webhooks/gitea/{projectId}',
    access: 'anyone',
    ok: 401,
    request: async (world) => ({
      url: `/webhooks/gitea/${world.project.id}`,
      payload: { ref: 'refs/heads/main' },
    }),
  },
  {
    method: 'GET',
    path: '/projects/{projectId}/deploy-keys',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({ url: `/projects/${world.project.id}/deploy-keys` }),
  },
  {
    method: 'POST',
    path: '/projects/{projectId}/deploy-keys',
    access: 'project (user only)',
    ok: 201,
    request: async (world) => ({ url: `/projects/${world.project.id}/deploy-keys`, payload: { name: 'ci' } }),
  },
  {
    method: 'DELETE',
    path: '/projects/{projectId}/deploy-keys/{keyId}',
    access: 'project (user only)',
    ok: 204,
    request: async (world) => {
      const { deployKey } = await world.app.repos.deployKeys.create(world.project.id, 'to revoke')
      return { url: `/projects/${world.project.id}/deploy-keys/${deployKey.id}` }
    },
  },
  {
    method: 'GET',
    path: '/projects/{projectId}/domains',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({ url: `/projects/${world.project.id}/domains` }),
  },
  {
    method: 'POST',
    path: '/projects/{projectId}/domains',
    access: 'project (user only)',
    ok: 201,
    request: async (world) => {
      world.counter += 1
      return {
        url: `/projects/${world.project.id}/domains`,
        payload: { hostname: `new-${world.counter}.example.test`, pathPrefix: '/docs' },
      }
    },
  },
  {
    method: 'DELETE',
    path: '/projects/{projectId}/domains/{domainId}',
    access: 'project (user only)',
    ok: 204,
    request: async (world) => ({ url: `/projects/${world.project.id}/domains/${await newDomain(world)}` }),
  },
  {
    method: 'GET',
    path: '/projects/{projectId}/domains/{domainId}/verification',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({
      url: `/projects/${world.project.id}/domains/${await newDomain(world)}/verification`,
    }),
  },
  {
    method: 'POST',
    path: '/projects/{projectId}/domains/{domainId}/verify',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({
      url: `/projects/${world.project.id}/domains/${await newDomain(world)}/verify`,
    }),
  },
  // Caddy's on-demand TLS question: public, and the same answer for everyone.
  {
    method: 'GET',
    path: '/tls/ask',
    access: 'anyone',
    ok: 200,
    request: async (world) => {
      const id = await newDomain(world)
      const row = await world.app.repos.domains.findById(id)
      assert.ok(row)
      await markVerified(world.app.repos, row)
      return { url: `/tls/ask?domain=${row.hostname}` }
    },
  },
  {
    method: 'POST',
    path: '/projects/slug/{slug}/deployments',
    access: 'project (deploy key too)',
    ok: 201,
    request: async (world) => ({ url: deploymentsOf(world), payload: { files: [fileEntry] } }),
  },
  {
    method: 'GET',
    path: '/projects/slug/{slug}/deployments',
    access: 'project (deploy key too)',
    ok: 200,
    request: async (world) => ({ url: deploymentsOf(world) }),
  },
  {
    method: 'GET',
    path: '/projects/slug/{slug}/deployments/{id}',
    access: 'project (deploy key too)',
    ok: 200,
    request: async (world) => ({ url: `${deploymentsOf(world)}/${world.readyDeploymentId}` }),
  },
  {
    method: 'GET',
    path: '/projects/slug/{slug}/deployments/{id}/files',
    access: 'project (deploy key too)',
    ok: 200,
    request: async (world) => ({ url: `${deploymentsOf(world)}/${world.readyDeploymentId}/files` }),
  },
  {
    method: 'GET',
    path: '/projects/slug/{slug}/deployments/{id}/diagnostics',
    access: 'project (deploy key too)',
    ok: 200,
    request: async (world) => ({ url: `${deploymentsOf(world)}/${world.readyDeploymentId}/diagnostics` }),
  },
  {
    method: 'GET',
    path: '/projects/slug/{slug}/deployments/{id}/report',
    access: 'project (deploy key too)',
    ok: 200,
    request: async (world) => ({ url: `${deploymentsOf(world)}/${world.readyDeploymentId}/report` }),
  },
  {
    // An image the report does not hold: 404 for those who may see the project, as for everyone else.
    method: 'GET',
    path: '/projects/slug/{slug}/deployments/{id}/report/images/{sha256}',
    access: 'project (deploy key too)',
    ok: 404,
    request: async (world) => ({
      url: `${deploymentsOf(world)}/${world.readyDeploymentId}/report/images/${'0'.repeat(64)}`,
    }),
  },
  {
    method: 'POST',
    path: '/projects/slug/{slug}/deployments/{id}/files/batch',
    access: 'project (deploy key too)',
    ok: 200,
    request: async (world) => {
      const id = await newDeployment(world, [fileEntry])
      const body = multipartBody([{ name: fileEntry.path, bytes: fileBytes }])
      return {
        url: `${deploymentsOf(world)}/${id}/files/batch`,
        headers: body.headers,
        payload: body.payload,
      }
    },
  },
  {
    method: 'PUT',
    path: '/projects/slug/{slug}/deployments/{id}/files/chunks/{sha256}',
    access: 'project (deploy key too)',
    ok: 200,
    request: async (world) => {
      // A file no earlier deployment stored, so the server really lacks it.
      world.counter += 1
      const bytes = Buffer.from(`chunked ${world.counter} ${randomBytes(8).toString('hex')}\n`)
      const digest = sha256(bytes)
      const id = await newDeployment(world, [{ path: 'big.bin', sha256: digest, size: bytes.length }])
      return {
        url: `${deploymentsOf(world)}/${id}/files/chunks/${digest}?offset=0`,
        headers: { 'content-type': 'application/octet-stream' },
        payload: bytes,
      }
    },
  },
  {
    method: 'POST',
    path: '/projects/slug/{slug}/deployments/{id}/finalize',
    access: 'project (deploy key too)',
    ok: 200,
    request: async (world) => {
      // Every file of the site is already stored by the earlier ready deployment: nothing to upload.
      const id = await newDeployment(world, manifestOf(world.site))
      return { url: `${deploymentsOf(world)}/${id}/finalize`, payload: { promote: false, waitSeconds: 60 } }
    },
  },
  {
    method: 'POST',
    path: '/projects/slug/{slug}/deployments/{id}/promote',
    access: 'project (user only)',
    ok: 200,
    request: async (world) => ({ url: `${deploymentsOf(world)}/${world.readyDeploymentId}/promote` }),
  },
  // Last, and the owner last within it: deleting the shared project must not change another cell's answer.
  {
    method: 'DELETE',
    path: '/projects/{projectId}',
    access: 'project (user only)',
    ok: 204,
    request: async (world) => ({ url: `/projects/${world.project.id}` }),
  },
]

async function credentials(
  app: FastifyInstance,
  world: World,
): Promise<Record<Actor, Record<string, string>>> {
  const expired = await signIn(app, 'ada@example.com')
  await app.db
    .updateTable('access_tokens')
    .set({ expires_at: '2001-01-01T00:00:00.000Z' })
    .where('token_hash', '=', hashToken(expired))
    .execute()
  const other = await signIn(app, 'bob@example.com')
  const othersProject = await createProject(app, other, 'bobs-docs')
  const othersKey = await app.repos.deployKeys.create(othersProject.id, 'ci')
  const ownKey = await app.repos.deployKeys.create(world.project.id, 'ci')
  return {
    anonymous: {},
    'bad token': bearer(`dsa_${randomBytes(32).toString('base64url')}`),
    'expired token': bearer(expired),
    'another user': bearer(other),
    'key of another project': bearer(othersKey.token),
    'key of this project': bearer(ownKey.token),
    owner: bearer(world.owner),
  }
}

async function runMatrix(t: TestContext, engine: Engine) {
  // Hundreds of requests from one address in a few seconds: lift the API-wide limit for this test.
  // Domain checks ask a closed loopback port: refused at once, so `verify` answers without the network.
  const domains = { ...defaultConfig().domains, dnsResolver: '127.0.0.1:9', dnsTimeoutMs: 200 }
  const {
    app,
    token: owner,
    project,
  } = await appWithProject(t, 'adas-docs', engine, {
    rateLimitPerMinute: 1_000_000,
    domains,
  })
  const site = await fixtureSite('minimal')
  const ready = await deploy(app, owner, project.slug, site, { promote: false })
  assert.equal(ready.finalized.statusCode, 200, ready.finalized.body)
  const world: World = { app, owner, project, site, readyDeploymentId: ready.id, counter: 0 }
  const headersOf = await credentials(app, world)

  const openapi = (await app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, object> }
  const documented = Object.entries(openapi.paths)
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort()
  const covered = routes.map((route) => `${route.method} ${route.path}`).sort()
  assert.deepEqual(
    covered,
    documented,
    'every documented route needs a row in this table (and no extra rows)',
  )

  const wrong: string[] = []
  let cells = 0
  for (const route of routes) {
    // The owner goes last, so a cell that changes shared state cannot hide another cell's answer.
    for (const actor of actors) {
      const request = await route.request(world)
      const response = await app.inject({
        method: route.method,
        ...request,
        headers: { ...request.headers, ...headersOf[actor] },
      })
      cells += 1
      const expected = expectedStatus(route.access, actor, route.ok)
      if (response.statusCode !== expected) {
        wrong.push(
          `${route.method} ${route.path} as ${actor}: ${response.statusCode}, expected ${expected} ${response.body.slice(0, 160)}`,
        )
      }
      // Browser pages of the sign-in flow answer HTML; every API error is the JSON error shape.
      if (response.statusCode >= 400 && !String(response.headers['content-type']).startsWith('text/html')) {
        assert.equal(
          typeof response.json().error,
          'string',
          `${route.method} ${route.path} as ${actor}: error body`,
        )
      }
      if (response.statusCode === 401 && !route.path.startsWith('/webhooks/'))
        assert.equal(response.headers['www-authenticate'], 'Bearer')
    }
  }
  assert.deepEqual(wrong, [])
  assert.equal(cells, routes.length * actors.length)
}

for (const engine of sqlEngines) {
  test(`every route × every actor answers the expected status (${engine})`, async (t) => {
    await runMatrix(t, engine)
  })
}
