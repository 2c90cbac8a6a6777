/**
 * `npm run bench:serve`: one 10 KB docs page served at 50 connections by docs-server (deployed through
 * its API), by raw `node:http` writing the same bytes and headers from memory (the ceiling for a Node
 * server), by nginx (from disk, one worker) and by @fastify/static; then docs-server again while a
 * 1,000-page deployment builds in its worker pool. Each server is pinned to core 0 and the load
 * generator, wrk, to core 1 (`taskset`), so the client never steals the server's core. Prints req/s,
 * p99, the server's CPU time per request (from /proc: a busy machine does not skew it the way it skews
 * req/s) and the ratios. It prints figures; it does not assert. Needs wrk and nginx on PATH
 * (`apt-get install wrk nginx-light`); without wrk it falls back to autocannon, which saturates first.
 *
 * `BENCH_SECONDS=N` loads each server for N s (default 10); `BENCH_CPU_PROF=DIR` writes docs-server's
 * CPU profile to DIR. Run as `node dist/bench/serve.js`; the same file serves as the @fastify/static and raw node:http
 * child processes.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingHttpHeaders, request } from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import getPort from 'get-port'
import { fromPackageRoot } from '../compiler/assets.js'
import { canPin, hasWrk, type LoadFigures, load, pinned, treeCpuSeconds } from './load.js'
import { createServerToken } from './server-token.js'

const connections = 50
const seconds = Number(process.env.BENCH_SECONDS ?? 10)

function call(
  port: number,
  method: string,
  path: string,
  options: { host: string; headers?: Record<string, string>; body?: Buffer },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { host: options.host, ...options.headers }
    if (options.body) headers['content-length'] = options.body.length
    const outgoing = request({ port, host: '127.0.0.1', method, path, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      )
    })
    outgoing.on('error', reject)
    outgoing.end(options.body)
  })
}

async function waitFor(port: number, host: string, path: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const answer = await call(port, 'GET', path, { host }).catch(() => undefined)
    if (answer && answer.status < 500) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`nothing answered on port ${port}`)
}

interface Figures extends LoadFigures {
  /** The server's CPU time per answered request (all its processes and threads), when it could be read. */
  cpuMicrosPerRequest?: number
}

async function loadServer(
  url: string,
  host: string,
  server: ChildProcess,
  duration = seconds,
): Promise<Figures> {
  const cpuBefore = server.pid === undefined ? undefined : await treeCpuSeconds(server.pid)
  const figures: Figures = await load(url, host, { connections, seconds: duration })
  const cpuAfter = server.pid === undefined ? undefined : await treeCpuSeconds(server.pid)
  if (cpuBefore !== undefined && cpuAfter !== undefined && figures.requests > 0)
    figures.cpuMicrosPerRequest = ((cpuAfter - cpuBefore) * 1e6) / figures.requests
  return figures
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

/** A site with one page of prose that renders to roughly 10 KB of HTML, plus `extraPages` more. */
function generatedSite(extraPages: number, salt: string): Map<string, Buffer> {
  const pages = ['index', ...Array.from({ length: extraPages }, (_, index) => `pages/page-${index}`)]
  const files = new Map<string, Buffer>()
  files.set(
    'docs.json',
    Buffer.from(
      JSON.stringify({
        name: 'Bench',
        theme: 'mint',
        colors: { primary: '#0D9373' },
        navigation: { groups: [{ group: 'Pages', pages }] },
      }),
    ),
  )
  const paragraph =
    'Docs hosting compiles MDX once and serves static files by Host and path, so readers get bytes from memory. '
  files.set('index.mdx', Buffer.from(`---\ntitle: Home\n---\n\n${paragraph.repeat(40)}\n`))
  for (let index = 0; index < extraPages; index++) {
    files.set(
      `pages/page-${index}.mdx`,
      Buffer.from(
        `---\ntitle: Page ${index} ${salt}\n---\n\n## Section\n\n${paragraph.repeat(8)}\n\n\`\`\`ts\nconst page = ${index}\n\`\`\`\n`,
      ),
    )
  }
  return files
}

async function deploy(
  port: number,
  apiHost: string,
  token: string,
  files: Map<string, Buffer>,
  waitSeconds: number,
): Promise<{ id: string; status: number }> {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const manifest = [...files].map(([path, bytes]) => ({ path, sha256: sha256(bytes), size: bytes.length }))
  const created = await call(port, 'POST', '/projects/slug/bench/deployments', {
    host: apiHost,
    headers: auth,
    body: Buffer.from(JSON.stringify({ files: manifest })),
  })
  const { deployment, missing } = JSON.parse(created.body.toString()) as {
    deployment: { id: string }
    missing: string[]
  }
  const wanted = new Set(missing)
  let batch: Buffer[] = []
  let batchBytes = 0
  const boundary = 'bench-boundary'
  const flush = async () => {
    if (batch.length === 0) return
    batch.push(Buffer.from(`--${boundary}--\r\n`))
    const answer = await call(port, 'POST', `/projects/slug/bench/deployments/${deployment.id}/files/batch`, {
      host: apiHost,
      headers: {
        authorization: auth.authorization,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: Buffer.concat(batch),
    })
    if (answer.status !== 200) throw new Error(`upload failed: ${answer.body.toString()}`)
    batch = []
    batchBytes = 0
  }
  for (const [path, bytes] of files) {
    if (!wanted.delete(sha256(bytes))) continue
    if (batchBytes + bytes.length > 3 * 1024 * 1024) await flush()
    batch.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${path}"; filename="f"\r\n\r\n`),
      bytes,
      Buffer.from('\r\n'),
    )
    batchBytes += bytes.length + 200
  }
  await flush()
  const finalized = await call(port, 'POST', `/projects/slug/bench/deployments/${deployment.id}/finalize`, {
    host: apiHost,
    headers: auth,
    body: Buffer.from(JSON.stringify({ waitSeconds })),
  })
  if (finalized.status >= 400) throw new Error(`finalize failed: ${finalized.body.toString()}`)
  return { id: deployment.id, status: finalized.status }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-serve-'))
  // nginx workers drop root privileges; they must be able to read the page.
  await chmod(work, 0o755)
  const children: ChildProcess[] = []
  try {
    // docs-server, deployed through its own API.
    const port = await getPort({ host: '127.0.0.1' })
    const apiHost = `localhost:${port}`
    const settings = [
      '--data-dir',
      join(work, 'data'),
      '--port',
      String(port),
      '--base-domain',
      apiHost,
      '--api-host',
      apiHost,
    ]
    const serverMain = fromPackageRoot('dist', 'bundle', 'server', 'main.js')
    const token = createServerToken(serverMain, settings)
    // BENCH_CPU_PROF=DIR: docs-server writes its CPU profile there when it stops (node --cpu-prof).
    const profile = process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : []
    const server = spawn(
      ...pinned(0, process.execPath, [...profile, serverMain, ...settings, '--log-level', 'warn']),
      { stdio: 'inherit' },
    )
    children.push(server)
    await waitFor(port, apiHost, '/health')
    await call(port, 'POST', '/projects/', {
      host: apiHost,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ name: 'Bench', slug: 'bench' })),
    })
    await deploy(port, apiHost, token, generatedSite(0, 'a'), 60)
    const siteHost = `bench.${apiHost}`
    const answer = await call(port, 'GET', '/', { host: siteHost })
    const page = answer.body
    console.log(`page: ${page.length} bytes of HTML (identity encoding)`)

    // nginx: the same bytes from disk, one worker process (docs-server is one process too).
    const root = join(work, 'www')
    await mkdir(root, { recursive: true })
    await writeFile(join(root, 'index.html'), page)
    const nginxPort = await getPort({ host: '127.0.0.1' })
    const nginxConf = join(work, 'nginx.conf')
    await writeFile(
      nginxConf,
      `daemon off;
worker_processes 1;
pid ${work}/nginx.pid;
error_log ${work}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${work}/nginx-body;
  proxy_temp_path ${work}/nginx-proxy;
  fastcgi_temp_path ${work}/nginx-fastcgi;
  uwsgi_temp_path ${work}/nginx-uwsgi;
  scgi_temp_path ${work}/nginx-scgi;
  types { text/html html; }
  server { listen 127.0.0.1:${nginxPort}; root ${root}; etag on; }
}
`,
    )
    const nginxBinary = spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx'])
      .stdout.toString()
      .trim()
    let nginx: Figures | undefined
    if (nginxBinary) {
      const child = spawn(...pinned(0, nginxBinary, ['-c', nginxConf, '-e', `${work}/nginx-error.log`]), {
        stdio: 'inherit',
      })
      children.push(child)
      await waitFor(nginxPort, 'localhost', '/')
      console.log('loading nginx…')
      nginx = await loadServer(`http://127.0.0.1:${nginxPort}/`, 'localhost', child)
      await stop(child)
    } else console.log('nginx not found: apt-get install nginx-light')

    // @fastify/static: this file in child mode.
    const staticPort = await getPort({ host: '127.0.0.1' })
    const staticChild = spawn(
      ...pinned(0, process.execPath, [process.argv[1]!, '--fastify-static', root, String(staticPort)]),
      { stdio: 'inherit' },
    )
    children.push(staticChild)
    await waitFor(staticPort, 'localhost', '/')
    console.log('loading @fastify/static…')
    const fastifyStatic = await loadServer(`http://127.0.0.1:${staticPort}/`, 'localhost', staticChild)
    await stop(staticChild)

    // raw node:http: the same body and headers docs-server sent, written from memory; no routing at all.
    const rawPort = await getPort({ host: '127.0.0.1' })
    const rawHeaders = Object.entries(answer.headers).filter(
      (entry): entry is [string, string] =>
        typeof entry[1] === 'string' && !['date', 'connection', 'keep-alive'].includes(entry[0]),
    )
    await writeFile(join(work, 'raw-headers.json'), JSON.stringify(rawHeaders))
    const rawChild = spawn(
      ...pinned(0, process.execPath, [
        process.argv[1]!,
        '--raw-http',
        join(root, 'index.html'),
        join(work, 'raw-headers.json'),
        String(rawPort),
      ]),
      { stdio: 'inherit' },
    )
    children.push(rawChild)
    await waitFor(rawPort, 'localhost', '/')
    console.log('loading raw node:http…')
    const raw = await loadServer(`http://127.0.0.1:${rawPort}/`, 'localhost', rawChild)
    await stop(rawChild)

    console.log('loading docs-server…')
    const ours = await loadServer(`http://127.0.0.1:${port}/`, siteHost, server)

    // While a 1,000-page deployment builds in the worker pool.
    const started = Date.now()
    const building = await deploy(port, apiHost, token, generatedSite(1000, 'b'), 0)
    console.log('loading docs-server while a 1,000-page deployment builds…')
    const duringBuild = await loadServer(`http://127.0.0.1:${port}/`, siteHost, server)
    const status = await call(port, 'GET', `/projects/slug/bench/deployments/${building.id}`, {
      host: apiHost,
      headers: { authorization: `Bearer ${token}` },
    })
    const buildState = (JSON.parse(status.body.toString()) as { status: string }).status
    // Let the build finish (shutdown waits for in-flight builds) and report how long it took.
    let finalState = buildState
    while (finalState === 'building') {
      await new Promise((resolve) => setTimeout(resolve, 500))
      const poll = await call(port, 'GET', `/projects/slug/bench/deployments/${building.id}`, {
        host: apiHost,
        headers: { authorization: `Bearer ${token}` },
      })
      finalState = (JSON.parse(poll.body.toString()) as { status: string }).status
    }
    const buildSeconds = (Date.now() - started) / 1000

    const row = (name: string, figures: Figures, showCpu = true) =>
      console.log(
        `${name.padEnd(28)} ${figures.requestsPerSecond.toFixed(0).padStart(8)} req/s   p99 ${figures.p99.toFixed(2).padStart(6)} ms   errors ${figures.errors}${
          showCpu && figures.cpuMicrosPerRequest !== undefined
            ? `   CPU ${figures.cpuMicrosPerRequest.toFixed(1).padStart(5)} µs/request`
            : ''
        }`,
      )
    const ratio = (a: Figures, b: Figures) => (a.requestsPerSecond / b.requestsPerSecond).toFixed(2)
    console.log(
      `\n${connections} connections, ${seconds} s each, keep-alive, load by ${hasWrk ? 'wrk' : 'autocannon'}; ${
        canPin
          ? 'servers pinned to core 0, the load generator to core 1'
          : 'not pinned (needs taskset and 2 cores)'
      }; load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}`,
    )
    if (nginx) row('nginx (1 worker, sendfile)', nginx)
    row('raw node:http (same bytes)', raw)
    row('@fastify/static', fastifyStatic)
    row('docs-server', ours)
    // Its CPU figure would count the build's workers too.
    row('docs-server during build', duringBuild, false)
    console.log(
      `  (the 1,000-page build was ${buildState} when the load ended; it finished ${finalState} after ${buildSeconds.toFixed(1)} s)`,
    )
    console.log(`docs-server / raw node:http:   ${ratio(ours, raw)}x (target >= 0.9x)`)
    if (ours.cpuMicrosPerRequest !== undefined && raw.cpuMicrosPerRequest !== undefined)
      console.log(
        `  by CPU per request (steady whatever else runs): raw / docs-server ${(raw.cpuMicrosPerRequest / ours.cpuMicrosPerRequest).toFixed(2)}x`,
      )
    if (nginx) console.log(`docs-server / nginx:           ${ratio(ours, nginx)}x (target >= 0.4x)`)
    console.log(`docs-server / @fastify/static: ${ratio(ours, fastifyStatic)}x`)
    console.log(
      `p99: ${ours.p99.toFixed(2)} ms (target < 10 ms); during build ${duringBuild.p99.toFixed(2)} ms (target < 50 ms)`,
    )
  } finally {
    for (const child of children) await stop(child)
    await rm(work, { recursive: true, force: true })
  }
}

/** The comparison server: @fastify/static on a folder, as its README sets it up. */
async function fastifyStaticChild(root: string, port: number): Promise<void> {
  const { default: Fastify } = await import('fastify')
  const { default: fastifyStatic } = await import('@fastify/static')
  const app = Fastify()
  await app.register(fastifyStatic, { root })
  await app.listen({ port, host: '127.0.0.1' })
  process.on('SIGTERM', () => app.close().then(() => process.exit(0)))
}

/** The ceiling: raw node:http answering every request with prepared bytes and headers. */
async function rawHttpChild(bodyFile: string, headersFile: string, port: number): Promise<void> {
  const body = await readFile(bodyFile)
  const headers = (JSON.parse(await readFile(headersFile, 'utf8')) as [string, string][]).flat()
  const server = createServer((_request, response) => {
    response.writeHead(200, headers)
    response.end(body)
  })
  server.listen(port, '127.0.0.1')
  process.on('SIGTERM', () => server.close(() => process.exit(0)))
}

if (process.argv[2] === '--fastify-static') {
  await fastifyStaticChild(process.argv[3]!, Number(process.argv[4]))
} else if (process.argv[2] === '--raw-http') {
  await rawHttpChild(process.argv[3]!, process.argv[4]!, Number(process.argv[5]))
} else {
  await main().catch((error: unknown) => {
    console.error(`bench:serve failed: ${error instanceof Error ? error.stack : String(error)}`)
    process.exitCode = 1
  })
}
