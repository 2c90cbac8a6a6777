/**
 * `npm run bench:many-sites`: pages read at random across many sites from one docs-server whose caches
 * hold a fraction of them, as a replica serving a whole organisation's docs does. The sites (40 of
 * 1,000 pages by default) are published straight into the server's database and blob store, not
 * built, so the bench measures serving alone. Eight keep-alive connections then read 30,000 pages
 * (`Accept-Encoding: br, gzip`) with the caches the reliability suite gives its reading replica
 * (16 MB of files, 8 MB of manifests), then again with a manifest cache every manifest fits in, the
 * peer: what the reads cost when the manifests take turns in the cache rather than stay in it. Prints
 * reads a second and docs-server's RSS at start and at its peak (read from /proc every 200 reads), for
 * both, and their ratios. It prints figures; it does not assert.
 *
 * `--sites N`, `--pages N` and `--reads N` change the sizes; `BENCH_SERVER_NODE_FLAGS` passes Node
 * flags to docs-server (`--trace-gc`). Run as `node dist/bench/many-sites.js`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import getPort from 'get-port'
import { fromPackageRoot } from '../compiler/assets.js'
import { buildApp } from '../server/app.js'
import { defaultConfig } from '../server/config.js'
import { createProject, signIn } from '../test/server/helper.js'
import { publish } from '../test/server/sites/publish.js'

const { values: flags } = parseArgs({
  options: { sites: { type: 'string' }, pages: { type: 'string' }, reads: { type: 'string' } },
})
const siteCount = Number(flags.sites ?? 40)
const pageCount = Number(flags.pages ?? 1000)
const readCount = Number(flags.reads ?? 30_000)
const MB = 1024 * 1024
const baseDomain = 'localhost'

/** A page of about 10 KB, and its Markdown export: each site's bytes its own. */
function siteFiles(site: number): Record<string, string> {
  const files: Record<string, string> = { 'index.html': `<!doctype html><title>Site ${site}</title>` }
  for (let page = 0; page < pageCount; page++) {
    files[`page-${page}/index.html`] =
      `<!doctype html><title>Site ${site}, page ${page}</title>${`<p>Prose of site ${site}, page ${page}, with <code>code</code>.</p>`.repeat(150)}`
    files[`page-${page}.md`] = `# Site ${site}, page ${page}\n\n${'Prose with `code`. '.repeat(300)}\n`
  }
  return files
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 })

function get(port: number, host: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { port, host: '127.0.0.1', path, headers: { host, 'accept-encoding': 'br, gzip' }, agent },
      (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode ?? 0))
      },
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

const rssBytes = async (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024

interface Figures {
  readsPerSecond: number
  failed: number
  rssAtStart: number
  rssPeak: number
}

async function readAtRandom(dataDir: string, manifestCacheBytes: number): Promise<Figures> {
  const port = await getPort({ host: '127.0.0.1' })
  const server: ChildProcess = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
      fromPackageRoot('dist', 'bundle', 'server', 'main.js'),
      ...['--data-dir', dataDir, '--port', String(port), '--base-domain', baseDomain],
      ...['--memory-cache-bytes', String(16 * MB), '--manifest-cache-bytes', String(manifestCacheBytes)],
      ...['--log-level', 'warn'],
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  )
  try {
    for (let attempt = 0; ; attempt++) {
      const status = await get(port, `site-0.${baseDomain}`, '/').catch(() => 0)
      if (status === 200) break
      if (attempt > 600) throw new Error('docs-server did not start')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const pid = server.pid!
    const rssAtStart = await rssBytes(pid)
    let rssPeak = rssAtStart
    let read = 0
    let failed = 0
    const started = performance.now()
    const reader = async () => {
      while (read < readCount) {
        read++
        const site = Math.floor(Math.random() * siteCount)
        const page = Math.floor(Math.random() * pageCount)
        if ((await get(port, `site-${site}.${baseDomain}`, `/page-${page}/`).catch(() => 0)) !== 200) failed++
        if (read % 200 === 0) rssPeak = Math.max(rssPeak, await rssBytes(pid))
      }
    }
    await Promise.all(Array.from({ length: 8 }, reader))
    const seconds = (performance.now() - started) / 1000
    rssPeak = Math.max(rssPeak, await rssBytes(pid))
    return { readsPerSecond: read / seconds, failed, rssAtStart, rssPeak }
  } finally {
    server.kill('SIGTERM')
    await new Promise((resolve) => server.once('exit', resolve))
  }
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-many-sites-'))
  try {
    const publishing = performance.now()
    const app = await buildApp(defaultConfig({ dataDir, baseDomain }))
    const token = await signIn(app)
    for (let site = 0; site < siteCount; site++) {
      await createProject(app, token, `site-${site}`)
      await publish(app, `site-${site}`, siteFiles(site))
    }
    await app.close()
    console.log(
      `many-sites bench: ${siteCount} sites of ${pageCount} pages published in ${((performance.now() - publishing) / 1000).toFixed(0)} s; ${readCount} reads at random at 8 connections each run`,
    )
    const small = await readAtRandom(dataDir, 8 * MB)
    const fits = await readAtRandom(dataDir, 1024 * MB)
    const row = (name: string, figures: Figures) =>
      `${name.padEnd(40)} ${figures.readsPerSecond.toFixed(0).padStart(7)} reads/s   RSS ${(figures.rssAtStart / MB).toFixed(0)} → ${(figures.rssPeak / MB).toFixed(0)} MB${figures.failed ? `   ${figures.failed} reads not 200` : ''}`
    console.log(row('manifest cache 8 MB (theirs take turns)', small))
    console.log(row('manifest cache 1 GB (every one fits)', fits))
    console.log(
      `ratio (8 MB / 1 GB): reads ${(small.readsPerSecond / fits.readsPerSecond).toFixed(2)}×, peak RSS ${(small.rssPeak / fits.rssPeak).toFixed(2)}×`,
    )
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

await main()
