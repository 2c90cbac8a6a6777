/**
 * Several `docs-server` processes as separate machines would run them: each its own data folder and
 * port, all on one PostgreSQL schema and one S3 bucket, the same base domain and API host (a load
 * balancer in front would send any request to any of them). Requests name the Host, as a browser or
 * the CLI behind that balancer would.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { cleanEnv, freePort } from '../cli/helpers/docs-server.js'
import { manifestOf, multipartBody } from '../server/helper.js'
import { builtBinary } from '../tier.js'

export const baseDomain = 'docs.test'
export const apiHost = 'api.docs.test'

export interface HttpAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  text: () => string
  json: <T = Record<string, unknown>>() => T
}

export function http(
  port: number,
  method: string,
  path: string,
  options: { host?: string; headers?: Record<string, string>; body?: Buffer; json?: unknown } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const body = options.json !== undefined ? Buffer.from(JSON.stringify(options.json)) : options.body
    const headers: Record<string, string | number> = { host: options.host ?? apiHost, ...options.headers }
    if (options.json !== undefined) headers['content-type'] = 'application/json'
    if (body !== undefined) headers['content-length'] = body.length
    const outgoing = request({ port, host: '127.0.0.1', method, path, headers, agent: false }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () => {
        const bytes = Buffer.concat(chunks)
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: bytes,
          text: () => bytes.toString('utf8'),
          json: <T>() => JSON.parse(bytes.toString('utf8')) as T,
        })
      })
    })
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

export interface Replica {
  name: string
  port: number
  dataDir: string
  process: ChildProcess
  /** Everything it wrote to stdout and stderr. */
  output: () => string
  exited: Promise<number | null>
  /** GET a page of `<slug>.<baseDomain>` from this replica. */
  site: (slug: string, path?: string) => Promise<HttpAnswer>
  api: (method: string, path: string, token: string, json?: unknown) => Promise<HttpAnswer>
}

export interface ReplicaSettings {
  databaseUrl: string
  databaseSchema: string
  /** The one blob store of all replicas: `--blob-store` and its S3 flags. */
  blobStoreArgs: string[]
  extraArgs?: string[]
}

/** The flags of one replica. */
function argsOf(settings: ReplicaSettings, port: number, dataDir: string): string[] {
  return [
    ...['--port', String(port), '--host', '127.0.0.1', '--data-dir', dataDir],
    ...['--base-domain', baseDomain, '--api-host', apiHost],
    ...['--database-url', settings.databaseUrl, '--database-schema', settings.databaseSchema],
    ...['--log-level', 'warn', '--build-workers', '1', '--rate-limit', '100000'],
    ...settings.blobStoreArgs,
    ...(settings.extraArgs ?? []),
  ]
}

/** Start (or restart, given its port and folder) one replica and wait until it answers /ready. */
export async function startReplica(
  name: string,
  settings: ReplicaSettings,
  reuse?: { port: number; dataDir: string },
): Promise<Replica> {
  const port = reuse?.port ?? (await freePort())
  let dataDir = reuse?.dataDir
  dataDir ??= await mkdtemp(join(tmpdir(), `docs-replica-${name}-`))
  const child = spawn(process.execPath, [builtBinary('docs-server'), ...argsOf(settings, port, dataDir)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: cleanEnv(),
  })
  let log = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`replica ${name} exited at start:\n${log}`)
    const ready = await http(port, 'GET', '/ready').catch(() => undefined)
    if (ready?.status === 200) break
    if (attempt > 600) throw new Error(`replica ${name} never became ready:\n${log}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    name,
    port,
    dataDir,
    process: child,
    output: () => log,
    exited,
    site: (slug, path = '/') => http(port, 'GET', path, { host: `${slug}.${baseDomain}` }),
    api: (method, path, token, json) =>
      http(port, method, path, {
        headers: { authorization: `Bearer ${token}` },
        ...(json === undefined ? {} : { json }),
      }),
  }
}

export async function stopReplica(replica: Replica, removeData = true): Promise<void> {
  if (replica.process.exitCode === null && replica.process.signalCode === null) {
    replica.process.kill('SIGTERM')
    await replica.exited
  }
  if (removeData) await rm(replica.dataDir, { recursive: true, force: true })
}

/** A session token made by the operator command against the shared database. */
export async function operatorToken(settings: ReplicaSettings, email: string): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'docs-replica-token-'))
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [builtBinary('docs-server'), 'token', 'create', '--email', email, ...argsOf(settings, 0, dataDir)],
      { env: cleanEnv() },
    )
    return stdout.trim().split('\n').at(-1)!.trim()
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

/**
 * Push `files` to project `slug` through `replica`: create, upload what it lacks, finalize. Answers
 * the finalize response and the deployment id.
 */
export async function push(
  replica: Replica,
  token: string,
  slug: string,
  files: Map<string, Uint8Array>,
  options: { promote?: boolean; waitSeconds?: number } = {},
): Promise<{ id: string; finalized: HttpAnswer }> {
  const created = await replica.api('POST', `/projects/slug/${slug}/deployments`, token, {
    branch: 'main',
    commitMessage: `push to ${slug}`,
    files: manifestOf(files),
  })
  if (created.status !== 201) throw new Error(`create deployment: ${created.status} ${created.text()}`)
  const { deployment, missing } = created.json<{ deployment: { id: string }; missing: string[] }>()
  const wanted = new Set(missing)
  const parts = [...files]
    .filter(([, bytes]) => wanted.delete(manifestOf(new Map([['x', bytes]]))[0]!.sha256))
    .map(([name, bytes]) => ({ name, bytes }))
  if (parts.length > 0) {
    const body = multipartBody(parts)
    const uploaded = await http(
      replica.port,
      'POST',
      `/projects/slug/${slug}/deployments/${deployment.id}/files/batch`,
      {
        headers: { authorization: `Bearer ${token}`, ...body.headers },
        body: body.payload,
      },
    )
    if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${uploaded.text()}`)
  }
  const finalized = await replica.api(
    'POST',
    `/projects/slug/${slug}/deployments/${deployment.id}/finalize`,
    token,
    {
      promote: options.promote ?? true,
      waitSeconds: options.waitSeconds ?? 60,
    },
  )
  return { id: deployment.id, finalized }
}

const encode = (text: string) => new TextEncoder().encode(text)

/** A site of `pages` pages whose home page says `marker`. */
export function siteSaying(marker: string, pages = 1): Map<string, Uint8Array> {
  const slugs = Array.from({ length: pages }, (_, index) => (index === 0 ? 'index' : `page-${index}`))
  const files = new Map<string, Uint8Array>([
    ['docs.json', encode(JSON.stringify({ name: 'Scale', navigation: { pages: slugs } }))],
  ])
  for (const [index, slug] of slugs.entries()) {
    const body =
      index === 0
        ? `The marker is ${marker}.\n`
        : `## Section ${index}\n\n${'A paragraph with **bold**, `code` and a [link](/index). '.repeat(40)}\n\n\`\`\`ts\nconst page = ${index}\n\`\`\`\n`
    files.set(`${slug}.mdx`, encode(`---\ntitle: Page ${index} ${marker}\n---\n\n${body}`))
  }
  return files
}
