/**
 * Test helpers for the server: an app on a fresh data folder and, for PostgreSQL, a fresh schema
 * (dropped afterwards, so parallel runs never collide); signed-in users; multipart bodies; deploying
 * a fixture site through the real API.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import type { TestContext } from 'node:test'
import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { fromPackageRoot } from '../../compiler/assets.js'
import type { RenderPool } from '../../compiler/pool/render-pool.js'
import { buildApp, buildLimits } from '../../server/app.js'
import { buildThreadPool } from '../../server/builds/pipeline.js'
import { defaultConfig, type ServerConfig } from '../../server/config.js'
import { loadPg, MIGRATION_LOCK_ID } from '../../server/db/index.js'
import { assertTierAllows, unitTier } from '../tier.js'

export type Engine = 'sqlite' | 'postgres'
/**
 * Both engines, for the tests whose SQL differs between them: repositories, migrations, the build
 * queue, garbage collection, the isolation matrix, start-up and health. PostgreSQL only in `npm test`.
 */
export const sqlEngines: Engine[] = unitTier ? ['sqlite'] : ['sqlite', 'postgres']
/**
 * The embedded default, for everything above the repositories: routes and services run one code path
 * on either engine (ARCHITECTURE decision 8), so running them twice proves nothing `sqlEngines` misses.
 */
export const engines: Engine[] = ['sqlite']
export const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** A fresh PostgreSQL schema for one test; dropped in `t.after`. */
export async function freshSchema(t: Pick<TestContext, 'after'>): Promise<string> {
  assertTierAllows('PostgreSQL')
  const schema = `t_${randomBytes(6).toString('hex')}`
  const client = new (loadPg().Client)({ connectionString: postgresUrl })
  await client.connect()
  await client.query(`create schema ${schema}`)
  await client.end()
  t.after(async () => {
    const cleanup = new (loadPg().Client)({ connectionString: postgresUrl })
    await cleanup.connect()
    await dropSchema(cleanup, schema)
    await cleanup.end()
  })
  return schema
}

/**
 * Drops a test's schema under the migration lock: a migration elsewhere reads every schema's catalogue,
 * and a schema dropped during that read fails it ("schema … does not exist").
 */
export async function dropSchema(client: pg.Client, schema: string): Promise<void> {
  await client.query('begin')
  await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID])
  await client.query(`drop schema if exists ${schema} cascade`)
  await client.query('commit')
}

export async function testConfig(
  t: Pick<TestContext, 'after'>,
  engine: Engine,
  overrides: Partial<ServerConfig> = {},
): Promise<ServerConfig> {
  const dataDir = await mkdtemp(join(tmpdir(), 'docs-server-'))
  // Retried: a blob write the app let finish after close (seen once, fair-queue test) made rmdir ENOTEMPTY.
  t.after(() => rm(dataDir, { recursive: true, force: true, maxRetries: 5 }))
  const database =
    engine === 'postgres' ? { databaseUrl: postgresUrl, databaseSchema: await freshSchema(t) } : {}
  return defaultConfig({ dataDir, buildWorkers: 1, ...database, ...overrides })
}

export async function testApp(
  t: Pick<TestContext, 'after'>,
  engine: Engine = 'sqlite',
  overrides: Partial<ServerConfig> = {},
): Promise<FastifyInstance> {
  const config = await testConfig(t, engine, overrides)
  const app = await buildApp(config, { renderPool: sharedBuildThreads(config) })
  // Registered after the schema/folder cleanups, so it runs first (t.after runs in reverse order).
  t.after(() => app.close())
  return app
}

/**
 * Build threads shared by the apps of this test process that have the same build limits. An app starts
 * two threads for its first build and each warms up the compiler (half a CPU-second, measured); a test
 * file makes an app per test, and test/run.js runs several files in one process. Idle threads never keep
 * the process alive (piscina unrefs them), so the pools are never closed.
 */
const buildThreads = new Map<string, RenderPool>()

function sharedBuildThreads(config: ServerConfig): RenderPool {
  const limits = buildLimits(config)
  const key = `${limits.concurrency}/${limits.memoryMb}/${limits.pageTimeoutMs}`
  let pool = buildThreads.get(key)
  if (!pool) {
    // piscina replaces a thread that dies between tasks; the app logs that, and test apps log nothing.
    pool = buildThreadPool(limits, () => {})
    buildThreads.set(key, pool)
  }
  return pool
}

export async function signIn(app: FastifyInstance, email = 'ada@example.com'): Promise<string> {
  const user = await app.repos.users.findOrCreate(email)
  const { token } = await app.repos.accessTokens.issue(user.id, 3600)
  return token
}

/** An app with a signed-in user who owns one project: where most API tests start. */
export async function appWithProject(
  t: Pick<TestContext, 'after'>,
  slug: string,
  engine: Engine = 'sqlite',
  overrides: Partial<ServerConfig> = {},
) {
  const app = await testApp(t, engine, overrides)
  const token = await signIn(app)
  const project = await createProject(app, token, slug)
  return { app, token, project }
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
export const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex')

/** A multipart/form-data body with one file part per entry, named by its path. */
export function multipartBody(
  parts: { name: string; bytes: Uint8Array | string }[],
  boundary = 'docs-test-boundary',
) {
  const chunks: Buffer[] = []
  for (const part of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.name.split('/').pop()}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(part.bytes),
      Buffer.from('\r\n'),
    )
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}

/** Every file of a folder as path → bytes, skipping dot files like the CLI does. */
export async function readSiteFolder(folder: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else files.set(relative(folder, path).split('\\').join('/'), await readFile(path))
    }
  }
  await walk(folder)
  return files
}

export const fixtureSite = (name: string): Promise<Map<string, Buffer>> =>
  readSiteFolder(fromPackageRoot('fixtures', 'sites', name))

export const manifestOf = (files: Map<string, Uint8Array>) =>
  [...files].map(([path, bytes]) => ({ path, sha256: sha256(bytes), size: bytes.length }))

export async function createProject(
  app: FastifyInstance,
  token: string,
  slug: string,
): Promise<{ id: string; slug: string }> {
  const response = await app.inject({
    method: 'POST',
    url: '/projects/',
    headers: bearer(token),
    payload: { name: `Project ${slug}`, slug },
  })
  if (response.statusCode !== 201) throw new Error(`create project: ${response.statusCode} ${response.body}`)
  return response.json()
}

/**
 * Create a deployment (with `fields` beside the manifest) and upload what the server lacks in one
 * batch. Returns the created deployment, the hashes the server asked for and the paths uploaded.
 */
export async function createAndUpload(
  app: FastifyInstance,
  token: string,
  slug: string,
  files: Map<string, Uint8Array>,
  fields: Record<string, unknown> = { branch: 'main', commitMessage: 'test' },
) {
  const created = await app.inject({
    method: 'POST',
    url: `/projects/slug/${slug}/deployments`,
    headers: bearer(token),
    payload: { ...fields, files: manifestOf(files) },
  })
  if (created.statusCode !== 201) throw new Error(`create deployment: ${created.statusCode} ${created.body}`)
  const { deployment, missing } = created.json() as {
    deployment: { id: string } & Record<string, unknown>
    missing: string[]
  }
  const wanted = new Set(missing)
  const parts = [...files]
    .filter(([, bytes]) => wanted.delete(sha256(bytes)))
    .map(([name, bytes]) => ({ name, bytes }))
  if (parts.length) {
    const body = multipartBody(parts)
    const uploaded = await app.inject({
      method: 'POST',
      url: `/projects/slug/${slug}/deployments/${deployment.id}/files/batch`,
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    })
    if (uploaded.statusCode !== 200) throw new Error(`upload: ${uploaded.statusCode} ${uploaded.body}`)
  }
  return { deployment, missing, uploadedPaths: parts.map((part) => part.name) }
}

/**
 * Create a deployment, upload what the server lacks in one batch, finalize. Returns the finalize
 * response, the hashes that were uploaded, and the deployment id.
 */
export async function deploy(
  app: FastifyInstance,
  token: string,
  slug: string,
  files: Map<string, Uint8Array>,
  options: { promote?: boolean; waitSeconds?: number } = {},
) {
  const { deployment, missing, uploadedPaths } = await createAndUpload(app, token, slug, files)
  const finalize = () =>
    app.inject({
      method: 'POST',
      url: `/projects/slug/${slug}/deployments/${deployment.id}/finalize`,
      headers: bearer(token),
      payload: { promote: options.promote ?? true, waitSeconds: options.waitSeconds ?? 60 },
    })
  let finalized = await finalize()
  // Without a wait of its own, a test waits for the build however loaded the machine is: finalizing a
  // deployment that is building waits for it again (up to ten minutes in all).
  for (
    let again = 0;
    options.waitSeconds === undefined && finalized.statusCode === 202 && again < 10;
    again++
  )
    finalized = await finalize()
  return { id: deployment.id, missing, uploadedPaths, finalized }
}
