/**
 * `npm run bench:edge`: what a reader gets through the shipped deploy/varnish.vcl in front of one
 * docs-server, side by side in one run:
 * - requests/s for one warm page through Varnish and from docs-server directly (wrk, 50 connections;
 *   autocannon when wrk is missing), and nginx on the same bytes when nginx is installed (it says so
 *   when it is not: no figure is made up);
 * - the hit ratio over a mix of reads across 30 projects, 90% of them on 10% of the pages;
 * - promote-to-fresh: from sending a promote (a rollback between two ready deployments) to the first
 *   read through Varnish that shows the promoted page, p50 and max over 20 promotes.
 * It prints figures; it does not assert. `BENCH_SECONDS=N` loads each server for N s (default 10).
 * Needs Debian's varnish and varnish-modules (and wrk for the req/s figures).
 */
import { execFile, spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { freePort, startDocsServer } from '../test/cli/helpers/docs-server.js'
import { DocsApi, noVarnish, siteSaying, startVarnish } from '../test/edge/varnish.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = 50
const projects = 30
const pagesPerProject = 20
const reads = 20_000
const promotes = 20

const onPath = (command: string) =>
  spawnSync('sh', ['-c', `command -v ${command}`])
    .stdout.toString()
    .trim()

/** Requests/s for `url` with `Host: host` over `seconds`, by wrk (or autocannon), and the errors. */
async function load(url: string, host: string): Promise<{ perSecond: number; p99: string; errors: number }> {
  if (onPath('wrk') === '') {
    const result = await autocannon({ url, connections, duration: seconds, headers: { host } })
    return {
      perSecond: result.requests.average,
      p99: `${result.latency.p99} ms`,
      errors: result.errors + result.non2xx,
    }
  }
  const output = await new Promise<string>((resolve, reject) =>
    execFile(
      'wrk',
      ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-H', `Host: ${host}`, url],
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  )
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0)
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)
  return {
    perSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]),
    p99: /^\s+99%\s+(\S+)/m.exec(output)?.[1] ?? '?',
    errors: non2xx + (socket ? socket.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0),
  }
}

/** nginx serving `page` from disk with one worker, loaded like the others; or why it was not. */
async function loadNginx(page: Buffer): Promise<Awaited<ReturnType<typeof load>> | string> {
  const binary = onPath('nginx') || (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : '')
  if (!binary) return 'not measured: nginx is not installed on this machine (apt-get install nginx-light)'
  const work = await mkdtemp(join(tmpdir(), 'bench-edge-nginx-'))
  // nginx workers drop root privileges; they must be able to read the page.
  await chmod(work, 0o755)
  await mkdir(join(work, 'www'))
  await writeFile(join(work, 'www', 'index.html'), page)
  const port = await freePort()
  const temp = ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `  ${kind === 'body' ? 'client_body' : kind}_temp_path ${work}/${kind};\n`)
    .join('')
  await writeFile(
    join(work, 'nginx.conf'),
    `daemon off;\nworker_processes 1;\npid ${work}/nginx.pid;\nerror_log ${work}/error.log warn;\nevents { worker_connections 1024; }\nhttp {\n  access_log off;\n  sendfile on;\n  keepalive_requests 100000;\n${temp}  types { text/html html; }\n  server { listen 127.0.0.1:${port}; root ${work}/www; etag on; }\n}\n`,
  )
  const child = spawn(binary, ['-c', join(work, 'nginx.conf'), '-e', join(work, 'error.log')], {
    stdio: 'ignore',
  })
  try {
    for (let attempt = 0; ; attempt++) {
      const answered = await new Promise<boolean>((resolve) =>
        request({ port, host: '127.0.0.1', path: '/' }, (response) =>
          resolve(response.resume() !== undefined),
        )
          .on('error', () => resolve(false))
          .end(),
      )
      if (answered) break
      if (attempt > 200) return 'not measured: nginx did not start'
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    console.log('loading nginx…')
    return await load(`http://127.0.0.1:${port}/`, 'localhost')
  } finally {
    child.kill('SIGTERM')
    await rm(work, { recursive: true, force: true })
  }
}

/** A GET through a keep-alive agent: the status, the X-Cache header and the body. */
function get(agent: Agent, port: number, host: string, path: string) {
  return new Promise<{ status: number; cache: string; body: string }>((resolve, reject) => {
    const outgoing = request({ agent, port, host: '127.0.0.1', path, headers: { host } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          cache: String(response.headers['x-cache'] ?? ''),
          body: Buffer.concat(chunks).toString(),
        }),
      )
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

/** A seeded generator, so two runs read the same mix. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

async function main() {
  const missing = noVarnish()
  if (missing) {
    console.log(`bench:edge needs Varnish: ${missing}`)
    return
  }
  console.log(
    `load average at start: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  )
  // Varnish's port first: docs-server purges it, and Varnish fetches from docs-server.
  const varnishPort = await freePort()
  const server = await startDocsServer([
    ...['--rate-limit', '1000000', '--build-workers', '1'],
    ...['--cdn-purge', `varnish:http://127.0.0.1:${varnishPort}`],
  ])
  const varnish = await startVarnish([server.port], { port: varnishPort, memory: '256m' })
  const agent = new Agent({ keepAlive: true, maxSockets: 16 })
  try {
    const api = new DocsApi(server.port, server.baseDomain, await server.tokenFor('bench@example.com'))
    const hostOf = (project: number) => `edge-${project}.${server.baseDomain}`
    console.log(`pushing ${projects} projects of ${pagesPerProject + 1} pages…`)
    const started = performance.now()
    for (let project = 0; project < projects; project++) {
      await api.createProject(`edge-${project}`)
      await api.push(`edge-${project}`, siteSaying(`edge-${project}-a`, pagesPerProject))
    }
    console.log(`  done in ${((performance.now() - started) / 1000).toFixed(1)} s`)

    // 1. One warm page: through Varnish, from docs-server directly, from nginx.
    const host = hostOf(0)
    const viaVarnish = await get(agent, varnish.port, host, '/')
    const direct = await get(agent, server.port, host, '/')
    const warm = await get(agent, varnish.port, host, '/')
    const sameBytes = viaVarnish.body === direct.body
    console.log(
      `\nwarm page: ${Buffer.byteLength(direct.body)} bytes of HTML, identity encoding; through Varnish ${warm.cache}; same bytes both ways: ${sameBytes}`,
    )
    console.log(`loading Varnish (${seconds} s, ${connections} connections)…`)
    const cached = await load(`${varnish.url}/`, host)
    console.log(`loading docs-server directly…`)
    const origin = await load(`http://127.0.0.1:${server.port}/`, host)
    const nginx = await loadNginx(Buffer.from(direct.body))

    // 2. The hit ratio over a mix: 90% of reads on the hottest 10% of the pages.
    const pages = Array.from({ length: projects * (pagesPerProject + 1) }, (_, index) => ({
      host: hostOf(index % projects),
      path: Math.floor(index / projects) === 0 ? '/' : `/page-${Math.floor(index / projects)}/`,
    }))
    const next = random(30)
    const hot = Math.ceil(pages.length / 10)
    const counts = { hit: 0, miss: 0, other: 0 }
    const queue = Array.from({ length: reads }, () =>
      next() < 0.9
        ? pages[Math.floor(next() * hot)]!
        : pages[hot + Math.floor(next() * (pages.length - hot))]!,
    )
    const mixStarted = performance.now()
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let read = queue.pop(); read; read = queue.pop()) {
          const answer = await get(agent, varnish.port, read.host, read.path)
          if (answer.status !== 200) counts.other++
          else if (answer.cache.startsWith('HIT')) counts.hit++
          else counts.miss++
        }
      }),
    )
    const mixSeconds = (performance.now() - mixStarted) / 1000

    // 3. Promote to fresh, 20 times: a rollback between two ready deployments of one project.
    const slug = 'edge-1'
    const first = (await api.call<{ liveDeploymentId: string }>('GET', `/projects/slug/${slug}`))
      .liveDeploymentId
    const second = await api.push(slug, siteSaying('edge-1-b', pagesPerProject))
    const latencies: number[] = []
    for (let promote = 0; promote < promotes; promote++) {
      const [target, marker] = promote % 2 === 0 ? [first, 'edge-1-a'] : [second, 'edge-1-b']
      const warmed = await get(agent, varnish.port, hostOf(1), '/')
      if (warmed.cache !== 'HIT') await get(agent, varnish.port, hostOf(1), '/')
      const sent = performance.now()
      await api.promote(slug, target)
      for (;;) {
        const answer = await get(agent, varnish.port, hostOf(1), '/')
        if (/The marker is (\S+) on/.exec(answer.body)?.[1] === marker) break
        if (performance.now() - sent > 30_000)
          throw new Error(`promote ${promote} never showed through Varnish`)
      }
      latencies.push(performance.now() - sent)
    }
    latencies.sort((a, b) => a - b)

    console.log('\n| figure | value |')
    console.log('| --- | --- |')
    console.log(
      `| warm page through Varnish | ${cached.perSecond.toFixed(0)} req/s, p99 ${cached.p99}, ${cached.errors} errors |`,
    )
    console.log(
      `| the same page from docs-server directly | ${origin.perSecond.toFixed(0)} req/s, p99 ${origin.p99}, ${origin.errors} errors |`,
    )
    console.log(`| Varnish ÷ docs-server | ${(cached.perSecond / origin.perSecond).toFixed(2)}× |`)
    console.log(
      `| nginx on the same bytes, from disk | ${typeof nginx === 'string' ? nginx : `${nginx.perSecond.toFixed(0)} req/s, p99 ${nginx.p99}, ${nginx.errors} errors`} |`,
    )
    console.log(
      `| hit ratio, ${reads} reads over ${pages.length} pages of ${projects} projects, 90% on the hottest ${hot} | ${((100 * counts.hit) / (counts.hit + counts.miss)).toFixed(1)}% (${counts.hit} hits, ${counts.miss} misses, ${counts.other} not 200; ${(reads / mixSeconds).toFixed(0)} reads/s at 16 connections) |`,
    )
    console.log(
      `| promote to fresh through Varnish, ${promotes} promotes | p50 ${percentile(latencies, 0.5).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms (from sending the promote) |`,
    )
    console.log(
      `\nload average at end: ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}`,
    )
  } finally {
    agent.destroy()
    await varnish.stop()
    await server.stop()
  }
}

await main()
