/**
 * Varnish in front of docs-server, as an operator runs it: `varnishd -F` on a free loopback port with
 * the shipped deploy/varnish.vcl as the `-f` file. Only its origin file (the backends and who may
 * purge, deploy/varnish-origin.vcl's part) is written here, into the instance's own folder, which goes
 * first on vcl_path so the shipped VCL includes it. Also: a purge link between docs-server and Varnish
 * that a test can break, and the API calls that push and promote a site.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fromPackageRoot } from '../../compiler/assets.js'
import { freePort } from '../cli/helpers/docs-server.js'
import { manifestOf, multipartBody } from '../server/helper.js'

export const shippedVcl = fromPackageRoot('deploy', 'varnish.vcl')
export const shippedFolder = fromPackageRoot('deploy')
const xkeyVmod = '/usr/lib/x86_64-linux-gnu/varnish/vmods/libvmod_xkey.so'

const onPath = (command: string): string =>
  spawnSync('sh', ['-c', `command -v ${command}`])
    .stdout.toString()
    .trim()

/** Why Varnish tests cannot run here, or false when they can (.ci/run installs both packages). */
export function noVarnish(): string | false {
  if (onPath('varnishd') === '')
    return 'varnishd is not installed: apt-get install varnish varnish-modules (.ci/run installs them)'
  if (!existsSync(xkeyVmod))
    return `the xkey vmod (${xkeyVmod}) is missing: apt-get install varnish-modules (.ci/run installs it)`
  return false
}

export interface HttpAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  text: () => string
}

/** One HTTP request to 127.0.0.1:`port` with a Host of our choosing (fetch cannot set Host). */
export function http(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string | number> = {},
  body?: Buffer,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        port,
        host: '127.0.0.1',
        method,
        path,
        headers: body ? { ...headers, 'content-length': body.length } : headers,
        agent: false,
      },
      (response) => {
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
          })
        })
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

export interface Varnish {
  port: number
  /** `http://127.0.0.1:<port>`: what `--cdn-purge varnish:` names. */
  url: string
  /** GET (or another method) through the cache, as a reader at `host` would. */
  get(host: string, path: string, headers?: Record<string, string>): Promise<HttpAnswer>
  output(): string
  stop(): Promise<void>
}

/** The origin file for docs-server replicas on loopback: one backend each, no health probe. */
export function originVcl(originPorts: readonly number[]): string {
  const backends = originPorts
    .map(
      (port, index) =>
        `backend docs_${index + 1} {\n  .host = "127.0.0.1";\n  .port = "${port}";\n  .connect_timeout = 1s;\n}\n`,
    )
    .join('')
  const adds = originPorts.map((_, index) => `  docs_origin.add_backend(docs_${index + 1});\n`).join('')
  return `vcl 4.1;\nimport directors;\n${backends}sub vcl_init {\n  new docs_origin = directors.round_robin();\n${adds}}\nacl docs_purgers {\n  "127.0.0.1";\n}\n`
}

/**
 * Starts `varnishd -F` with the shipped VCL in front of docs-server(s) on `originPorts`, and waits
 * until it answers. `port` picks the listening port (a free one by default).
 */
export async function startVarnish(
  originPorts: readonly number[],
  options: { port?: number; memory?: string } = {},
): Promise<Varnish> {
  const port = options.port ?? (await freePort())
  const folder = await mkdtemp(join(tmpdir(), 'docs-varnish-'))
  // Started as root, varnishd compiles the VCL as its own unprivileged user, which must read the folder.
  await chmod(folder, 0o755)
  await writeFile(join(folder, 'varnish-origin.vcl'), originVcl(originPorts))
  const child: ChildProcess = spawn(
    onPath('varnishd'),
    [
      '-F',
      ...['-n', join(folder, 'instance')],
      ...['-a', `127.0.0.1:${port}`],
      ...['-f', shippedVcl],
      ...['-p', `vcl_path=${folder}:/usr/share/varnish/vcl`],
      ...['-s', `malloc,${options.memory ?? '64m'}`],
      // No management port: nothing here talks to it, and a fixed one would clash between tests.
      ...['-T', 'none'],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let log = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await exited
    }
    await rm(folder, { recursive: true, force: true })
  }
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop()
      throw new Error(`varnishd exited at start:\n${log}`)
    }
    // Any answer (the probe's own Host is no site: docs-server's 404, or the VCL's 503) means it listens.
    const answer = await http(port, 'GET', '/', { host: 'varnish-ready.invalid' }).catch(() => undefined)
    if (answer) break
    if (attempt > 600) {
      await stop()
      throw new Error(`varnishd did not answer on ${port}:\n${log}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    get: (host, path, headers = {}) => http(port, 'GET', path, { host, ...headers }),
    output: () => log,
    stop,
  }
}

/**
 * The purge link from docs-server to Varnish: it forwards every request to Varnish, except while
 * broken, when it answers 503 itself (a node restarting, a network fault). Counts what it saw.
 */
export interface PurgeLink {
  url: string
  /** Requests answered 503 while broken. */
  failed: number
  /** Requests forwarded to Varnish, with the tags they purged. */
  forwarded: string[]
  broken: boolean
  close(): Promise<void>
}

export async function startPurgeLink(varnishPort: number): Promise<PurgeLink> {
  const link: PurgeLink = {
    url: '',
    failed: 0,
    forwarded: [],
    broken: false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  const server = createServer(async (incoming, outgoing) => {
    if (link.broken) {
      link.failed++
      outgoing.writeHead(503, { 'content-type': 'text/plain' })
      outgoing.end('link down\n')
      return
    }
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(incoming.headers))
      if (typeof value === 'string' && name !== 'connection') headers[name] = value
    link.forwarded.push(headers['xkey-purge'] ?? '')
    const answer = await http(varnishPort, incoming.method ?? 'PURGE', incoming.url ?? '/', headers).catch(
      (error: Error) => ({ status: 502, body: Buffer.from(`${error.message}\n`) }),
    )
    outgoing.writeHead(answer.status, { 'content-type': 'text/plain' })
    outgoing.end(answer.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  link.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return link
}

/** The API of one docs-server, by its port and API host. */
export class DocsApi {
  constructor(
    readonly port: number,
    readonly apiHost: string,
    readonly token: string,
  ) {}

  async call<T>(method: string, path: string, json?: unknown): Promise<T> {
    const headers: Record<string, string> = { host: this.apiHost, authorization: `Bearer ${this.token}` }
    if (json !== undefined) headers['content-type'] = 'application/json'
    const answer = await http(
      this.port,
      method,
      path,
      headers,
      json === undefined ? undefined : Buffer.from(JSON.stringify(json)),
    )
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text()}`)
    return (answer.text() === '' ? undefined : JSON.parse(answer.text())) as T
  }

  createProject(slug: string): Promise<{ id: string }> {
    return this.call('POST', '/projects/', { slug, name: slug })
  }

  /** Pushes `files` to `slug`, builds and promotes it; the deployment's id. */
  async push(slug: string, files: Map<string, Uint8Array>): Promise<string> {
    const { deployment, missing } = await this.call<{ deployment: { id: string }; missing: string[] }>(
      'POST',
      `/projects/slug/${slug}/deployments`,
      { branch: 'main', commitMessage: `push to ${slug}`, files: manifestOf(files) },
    )
    const wanted = new Set(missing)
    const parts = [...files]
      .filter(([, bytes]) => wanted.delete(manifestOf(new Map([['x', bytes]]))[0]!.sha256))
      .map(([name, bytes]) => ({ name, bytes }))
    if (parts.length > 0) {
      const body = multipartBody(parts)
      const uploaded = await http(
        this.port,
        'POST',
        `/projects/slug/${slug}/deployments/${deployment.id}/files/batch`,
        { host: this.apiHost, authorization: `Bearer ${this.token}`, ...body.headers },
        body.payload,
      )
      if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${uploaded.text()}`)
    }
    await this.call('POST', `/projects/slug/${slug}/deployments/${deployment.id}/finalize`, {
      promote: true,
      waitSeconds: 60,
    })
    return deployment.id
  }

  /** Makes an earlier deployment live again: a rollback. */
  async promote(slug: string, deploymentId: string): Promise<void> {
    await this.call('POST', `/projects/slug/${slug}/deployments/${deploymentId}/promote`)
  }
}

const encode = (text: string) => new TextEncoder().encode(text)

/** A site whose pages all say `marker`: `index` and `pages` more (`page-1`…). */
export function siteSaying(marker: string, pages = 0): Map<string, Uint8Array> {
  const slugs = ['index', ...Array.from({ length: pages }, (_, index) => `page-${index + 1}`)]
  const files = new Map<string, Uint8Array>([
    ['docs.json', encode(JSON.stringify({ name: 'Edge', navigation: { pages: slugs } }))],
  ])
  for (const slug of slugs)
    files.set(`${slug}.mdx`, encode(`---\ntitle: ${slug}\n---\n\nThe marker is ${marker} on ${slug}.\n`))
  return files
}

/** The marker a page says, or undefined. */
export const markerOf = (answer: HttpAnswer): string | undefined =>
  /The marker is (\S+) on/.exec(answer.text())?.[1]
