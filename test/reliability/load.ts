/**
 * Load, on two replicas (PostgreSQL + S3: a fresh schema and an s3rver started here, both removed at the
 * end):
 * - `wrk` at 50 connections on replica A, once for reads alone and once while another deployment is
 *   promoted every second through replica B. Every page and asset of each deployment says its version
 *   (`version-<n>` in the page, its image and the author's `style.css`); beside wrk, client loops load a
 *   page and every asset it references from replica A and check each body says the page's version (and
 *   that the content-hashed theme assets answer). Zero errors, zero mixed pages; requests/s, p50 and p99.
 *   Without `wrk` on the PATH the suite says so and runs the client loops alone.
 * - Concurrent pushes of a many-file site to as many projects by 5 users, over both replicas: all
 *   succeed; the fair queue's longest wait (a build's `queuedMs`) is printed.
 * - Many projects read at random from a third replica started with small caches: its RSS stays under its
 *   in-memory cache bounds (`--memory-cache-bytes` + `--manifest-cache-bytes`) plus a fixed overhead, and
 *   its on-disk S3 read cache under `--blob-cache-bytes`.
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import {
  baseDomain,
  http,
  operatorToken,
  push,
  type Replica,
  type ReplicaSettings,
  startReplica,
  stopReplica,
} from '../e2e/replicas.js'
import { startS3Server } from '../server/blobs/s3-server.js'
import { dropSchema, postgresUrl } from '../server/helper.js'
import { evidence } from './evidence.js'
import { Cases, type Suite, type SuiteContext } from './suite.js'

const encode = (text: string) => new TextEncoder().encode(text)
const MB = 1024 * 1024

/** How much each part does in a setting. */
const sizes = {
  short: {
    wrkSeconds: 10,
    versions: 4,
    versionPages: 10,
    pushes: 8,
    pushFiles: 40,
    readProjects: 10,
    readPages: 100,
    reads: 3_000,
  },
  long: {
    wrkSeconds: 30,
    versions: 6,
    versionPages: 30,
    pushes: 20,
    pushFiles: 200,
    readProjects: 50,
    readPages: 1_000,
    reads: 30_000,
  },
}

const slugsOf = (pages: number) =>
  Array.from({ length: pages }, (_, index) => (index === 0 ? 'index' : `page-${index}`))
const urlOf = (slug: string) => (slug === 'index' ? '/' : `/${slug}/`)

/** A site whose every page, its image and its `style.css` say `version-<version>`. */
export function versionSite(version: number, pages: number): Map<string, Uint8Array> {
  const slugs = slugsOf(pages)
  const files = new Map<string, Uint8Array>([
    ['docs.json', encode(JSON.stringify({ name: 'Load test', navigation: { pages: slugs } }))],
    [
      'images/version.svg',
      encode(
        `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="20"><text y="15">version-${version}</text></svg>\n`,
      ),
    ],
    ['style.css', encode(`.version-tag { --version: "version-${version}"; }\n`)],
  ])
  for (const [index, slug] of slugs.entries())
    files.set(
      `${slug}.mdx`,
      encode(
        `---\ntitle: Page ${index}\n---\n\nThis page is version-${version}.\n\n![The version](/images/version.svg)\n\n${'A paragraph with **bold**, `code` and a [link](/index). '.repeat(20)}\n`,
      ),
    )
  return files
}

/**
 * A site of `count` files: `docs.json`, pages and (with `images`) a tenth of them images. The navigation
 * lists the first 50 pages, so a page of a big site stays the size of a small one's.
 */
export function manyFileSite(name: string, count: number, withImages = true): Map<string, Uint8Array> {
  const images = withImages ? Math.floor(count / 10) : 0
  const slugs = slugsOf(count - 1 - images)
  const files = new Map<string, Uint8Array>([
    ['docs.json', encode(JSON.stringify({ name, navigation: { pages: slugs.slice(0, 50) } }))],
  ])
  for (let image = 0; image < images; image++)
    files.set(
      `images/figure-${image}.svg`,
      encode(`<svg xmlns="http://www.w3.org/2000/svg"><text>${name} figure ${image}</text></svg>\n`),
    )
  for (const [index, slug] of slugs.entries())
    files.set(
      `${slug}.mdx`,
      encode(
        `---\ntitle: ${name} page ${index}\n---\n\n## Section ${index}\n\n${'Some prose with `code` and **bold**. '.repeat(15)}\n`,
      ),
    )
  return files
}

/** Versions a body says (`version-<n>`). */
const versionsIn = (text: string) => new Set([...text.matchAll(/version-(\d+)/g)].map((match) => match[1]!))

/** The same-origin URLs a page loads: stylesheets, scripts and images, resolved against the page. */
export function assetsOf(html: string, pagePath: string): string[] {
  const base = new URL(pagePath, 'http://site.invalid')
  const urls = new Set<string>()
  for (const tag of html.matchAll(/<(?:link|script|img)\b[^>]*>/gi)) {
    const tagText = tag[0]
    if (/^<link/i.test(tagText) && !/rel=["']?(?:stylesheet|modulepreload|preload)/i.test(tagText)) continue
    const reference = /\b(?:href|src)=["']([^"']+)["']/i.exec(tagText)?.[1]
    if (!reference) continue
    const url = new URL(reference.replaceAll('&amp;', '&'), base)
    if (url.origin === base.origin) urls.add(url.pathname + url.search)
  }
  return [...urls]
}

interface LoadFigures {
  pages: number
  assets: number
  errors: string[]
  mixed: string[]
}

/**
 * Client loops until `stop()`: load a page and every asset it references, check each answers 200 and that
 * every version an answer says is the page's.
 */
function readerLoops(replica: Replica, slug: string, pages: number, loops: number) {
  const figures: LoadFigures = { pages: 0, assets: 0, errors: [], mixed: [] }
  let running = true
  const paths = slugsOf(pages).map(urlOf)
  const loop = async (offset: number) => {
    for (let turn = offset; running; turn++) {
      const path = paths[turn % paths.length]!
      const page = await replica.site(slug, path).catch((error: Error) => error)
      if (page instanceof Error || page.status !== 200) {
        figures.errors.push(`${path}: ${page instanceof Error ? page.message : `answered ${page.status}`}`)
        continue
      }
      figures.pages++
      const html = page.text()
      const versions = versionsIn(html)
      if (versions.size !== 1) {
        figures.mixed.push(`${path} says versions ${[...versions].join(', ') || 'none'}`)
        continue
      }
      const [version] = versions
      for (const asset of assetsOf(html, path)) {
        const answer = await replica.site(slug, asset).catch((error: Error) => error)
        if (answer instanceof Error || answer.status !== 200) {
          figures.errors.push(
            `${asset} of ${path} (version-${version}): ${answer instanceof Error ? answer.message : `answered ${answer.status}`}`,
          )
          continue
        }
        figures.assets++
        const said = versionsIn(answer.text())
        if (said.size > 0 && (said.size !== 1 || !said.has(version!)))
          figures.mixed.push(
            `${path} is version-${version} but ${asset} says version-${[...said].join(', ')}`,
          )
      }
    }
  }
  const done = Promise.all(Array.from({ length: loops }, (_, index) => loop(index * 7)))
  return {
    figures,
    stop: async () => {
      running = false
      await done
      return figures
    },
  }
}

export interface WrkResult {
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  requests: number
  /** Non-2xx/3xx answers and socket errors. */
  errors: number
  /** Of `errors`: requests wrk gave up on after its 2 s timeout (a loaded machine), not answers. */
  timeouts: number
}

const toMs = (value: string, unit: string) =>
  Number(value) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 1)

/** Reads `wrk --latency`'s report. */
export function parseWrk(output: string): WrkResult {
  const latency = (percent: string) => {
    const match = new RegExp(`^\\s*${percent}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(output)
    if (!match) throw new Error(`wrk printed no ${percent}% latency:\n${output}`)
    return toMs(match[1]!, match[2]!)
  }
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(output)
  const requests = /(\d+) requests in/.exec(output)
  if (!rate || !requests) throw new Error(`wrk printed no requests/sec:\n${output}`)
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0)
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)
  const socketErrors = socket ? socket.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0
  return {
    requestsPerSecond: Number(rate[1]),
    p50Ms: latency('50'),
    p99Ms: latency('99'),
    requests: Number(requests[1]),
    errors: non2xx + socketErrors,
    timeouts: Number(socket?.[4] ?? 0),
  }
}

async function wrkInstalled(): Promise<boolean> {
  return promisify(execFile)('wrk', ['--version']).then(
    () => true,
    // wrk --version prints its version and exits 1.
    (error: { code?: number | string; stdout?: string }) => error.code !== 'ENOENT' && error.code !== 127,
  )
}

/** wrk at 50 connections over the site's pages and assets, `seconds` long. */
async function runWrk(replica: Replica, slug: string, paths: string[], seconds: number): Promise<WrkResult> {
  const script = join(tmpdir(), `docs-load-${randomBytes(4).toString('hex')}.lua`)
  await writeFile(
    script,
    `wrk.headers["Host"] = "${slug}.${baseDomain}"\nlocal paths = {${paths.map((path) => JSON.stringify(path)).join(', ')}}\nlocal turn = 0\nrequest = function()\n  turn = turn + 1\n  return wrk.format("GET", paths[(turn % #paths) + 1])\nend\n`,
  )
  try {
    const { stdout } = await promisify(execFile)(
      'wrk',
      [
        '-t',
        '2',
        '-c',
        '50',
        '-d',
        `${seconds}s`,
        '--latency',
        '-s',
        script,
        `http://127.0.0.1:${replica.port}`,
      ],
      { maxBuffer: 16 * MB },
    )
    return parseWrk(stdout)
  } finally {
    await rm(script, { force: true })
  }
}

const format = (result: WrkResult) =>
  `${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms`

/**
 * Push and wait until the build ends (finalize waits 60 s at most, then the deployment is polled): answers
 * undefined when it went live, else what went wrong.
 */
async function pushUntilLive(
  replica: Replica,
  token: string,
  slug: string,
  files: Map<string, Uint8Array>,
): Promise<{ id: string; problem?: string }> {
  const pushed = await push(replica, token, slug, files, { waitSeconds: 60 })
  if (pushed.finalized.status === 200) return { id: pushed.id }
  if (pushed.finalized.status !== 202)
    return { id: pushed.id, problem: `${pushed.finalized.status} ${pushed.finalized.text().slice(0, 300)}` }
  const started = performance.now()
  while (performance.now() - started < 900_000) {
    await new Promise((resolve) => setTimeout(resolve, 500))
    const answer = await replica.api('GET', `/projects/slug/${slug}/deployments/${pushed.id}`, token)
    const body = answer.json<{ status?: string; deployment?: { status?: string } }>()
    const status = body.deployment?.status ?? body.status
    if (status === 'ready') return { id: pushed.id }
    if (status === 'failed') return { id: pushed.id, problem: `failed: ${answer.text().slice(0, 300)}` }
  }
  return { id: pushed.id, problem: 'still building after 15 min' }
}

/** Resident set size of a process, from /proc. */
async function rssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
}

async function folderBytes(folder: string): Promise<number> {
  const names = await readdir(folder).catch(() => [] as string[])
  let total = 0
  for (const name of names) total += (await stat(join(folder, name)).catch(() => ({ size: 0 }))).size
  return total
}

/** RSS past the caches: Node, Fastify, the database pool, the S3 client and the compiler's modules. */
const fixedOverheadBytes = 256 * MB

export const load: Suite = {
  name: 'load (2 replicas, PostgreSQL + S3)',
  async run({ setting, say }: SuiteContext) {
    const cases = new Cases()
    const size = sizes[setting]
    const figures: Record<string, string | number> = {}
    const cleanups: (() => Promise<void>)[] = []
    const replicas: Replica[] = []
    const admin = new pg.Client({ connectionString: postgresUrl })
    try {
      await admin.connect()
      cleanups.push(() => admin.end())
      const schema = `load_${randomBytes(6).toString('hex')}`
      await admin.query(`create schema ${schema}`)
      cleanups.push(() => dropSchema(admin, schema))
      const s3 = await startS3Server({ after: (fn) => cleanups.push(fn) })
      const settings: ReplicaSettings = {
        databaseUrl: postgresUrl,
        databaseSchema: schema,
        blobStoreArgs: s3.args('load'),
        extraArgs: ['--build-workers', '2'],
      }
      cleanups.push(async () => {
        for (const replica of replicas) {
          await stopReplica(replica)
          evidence.output(`load: replica ${replica.name} log`, replica.output())
        }
      })
      replicas.push(await startReplica('a', settings))
      replicas.push(await startReplica('b', settings))
      const [a, b] = replicas as [Replica, Replica]
      const token = await operatorToken(settings, 'load@example.com')
      evidence.secret('session token', token)

      // 1. wrk on replica A, reads alone and then with a promotion every second through replica B.
      const slug = 'load'
      const created = await a.api('POST', '/projects/', token, { name: slug, slug })
      if (created.status !== 201) throw new Error(`create project: ${created.status} ${created.text()}`)
      const deployments: string[] = []
      for (let version = 1; version <= size.versions; version++) {
        const pushed = await push(b, token, slug, versionSite(version, size.versionPages), {
          promote: version === 1,
        })
        if (pushed.finalized.status !== 200)
          throw new Error(`push of version ${version}: ${pushed.finalized.status} ${pushed.finalized.text()}`)
        deployments.push(pushed.id)
      }
      say(`load: ${size.versions} versions of ${size.versionPages} pages pushed`)
      const first = await a.site(slug, '/')
      const wrkPaths = [
        ...slugsOf(size.versionPages).map(urlOf),
        ...(first.status === 200 ? assetsOf(first.text(), '/') : []),
      ]
      const haveWrk = await wrkInstalled()
      if (!haveWrk) say('load: wrk is not installed (apt-get install wrk): its part is skipped')
      figures.wrk = haveWrk ? '50 connections' : 'not installed, skipped'

      const phase = async (promoting: boolean) => {
        const readers = readerLoops(a, slug, size.versionPages, 4)
        let promotions = 0
        const promotionErrors: string[] = []
        let keepPromoting = promoting
        const promoter = (async () => {
          for (let turn = 1; keepPromoting; turn++) {
            const next = deployments[turn % deployments.length]!
            const answer = await b.api('POST', `/projects/slug/${slug}/deployments/${next}/promote`, token)
            if (answer.status === 200) promotions++
            else promotionErrors.push(`promote ${next}: ${answer.status} ${answer.text().slice(0, 200)}`)
            await new Promise((resolve) => setTimeout(resolve, 1000))
          }
        })()
        const wrk = haveWrk
          ? await runWrk(a, slug, wrkPaths, size.wrkSeconds)
          : await new Promise<undefined>((resolve) => setTimeout(resolve, size.wrkSeconds * 1000))
        keepPromoting = false
        await promoter
        const read = await readers.stop()
        const name = promoting ? 'while promoting' : 'reads alone'
        if (wrk) {
          cases.check(
            wrk.errors === 0,
            () =>
              `wrk ${name}: ${wrk.errors} errors of ${wrk.requests} requests (${wrk.timeouts} of them wrk's 2 s timeout)`,
          )
          figures[`wrk ${name}`] = format(wrk)
        }
        cases.check(
          read.errors.length === 0,
          () => `${name}: ${read.errors.length} failed loads, first: ${read.errors.slice(0, 3).join('; ')}`,
        )
        cases.check(
          read.mixed.length === 0,
          () => `${name}: ${read.mixed.length} mixed pages, first: ${read.mixed.slice(0, 3).join('; ')}`,
        )
        if (promoting) {
          cases.check(
            promotionErrors.length === 0,
            () => `promotions: ${promotionErrors.slice(0, 3).join('; ')}`,
          )
          figures.promotions = promotions
        }
        figures[`checked ${name}`] = `${read.pages} pages + ${read.assets} assets, ${read.mixed.length} mixed`
        say(`load: ${name}: ${read.pages} pages checked${wrk ? `, wrk ${format(wrk)}` : ''}`)
      }
      await phase(false)
      await phase(true)

      // 2. Concurrent pushes of a many-file site to as many projects by 5 users, over both replicas.
      const users = await Promise.all(
        Array.from({ length: 5 }, (_, index) => operatorToken(settings, `pusher-${index}@example.com`)),
      )
      for (const user of users) evidence.secret('session token', user)
      const projects = Array.from({ length: size.pushes }, (_, index) => ({
        slug: `many-${index}`,
        token: users[index % users.length]!,
      }))
      for (const project of projects) {
        const made = await a.api('POST', '/projects/', project.token, {
          name: project.slug,
          slug: project.slug,
        })
        if (made.status !== 201) throw new Error(`create ${project.slug}: ${made.status} ${made.text()}`)
      }
      const pushStarted = performance.now()
      const pushes = await Promise.all(
        projects.map((project, index) =>
          pushUntilLive(
            replicas[index % 2]!,
            project.token,
            project.slug,
            manyFileSite(project.slug, size.pushFiles),
          ).catch((error: Error) => ({ id: '', problem: error.message })),
        ),
      )
      const pushSeconds = (performance.now() - pushStarted) / 1000
      for (const [index, pushed] of pushes.entries())
        cases.check(pushed.problem === undefined, () => `push to ${projects[index]!.slug}: ${pushed.problem}`)
      const timings = await admin.query<{ timings: string }>(
        `select timings from ${schema}.deployments where id = any($1)`,
        [pushes.map((pushed) => pushed.id).filter(Boolean)],
      )
      const waits = timings.rows.map(
        (row) => (JSON.parse(row.timings) as { queuedMs?: number }).queuedMs ?? 0,
      )
      figures[`${size.pushes} pushes × ${size.pushFiles} files, 5 users`] = `${pushSeconds.toFixed(1)} s`
      figures['longest queue wait'] = `${(Math.max(0, ...waits) / 1000).toFixed(1)} s`
      say(`load: ${size.pushes} pushes in ${pushSeconds.toFixed(1)} s`)

      // 3. Many projects read at random from a replica with small caches.
      const readSlugs = Array.from({ length: size.readProjects }, (_, index) => `read-${index}`)
      await Promise.all(
        readSlugs.map(async (readSlug, index) => {
          const owner = users[index % users.length]!
          const made = await a.api('POST', '/projects/', owner, { name: readSlug, slug: readSlug })
          if (made.status !== 201) throw new Error(`create ${readSlug}: ${made.status} ${made.text()}`)
          const site = manyFileSite(readSlug, size.readPages + 1, false)
          const pushed = await pushUntilLive(replicas[index % 2]!, owner, readSlug, site)
          if (pushed.problem) throw new Error(`push to ${readSlug}: ${pushed.problem}`)
        }),
      )
      say(`load: ${size.readProjects} projects of ${size.readPages} pages pushed`)
      const caches = { memory: 16 * MB, manifest: 8 * MB, blob: 32 * MB }
      const reader = await startReplica('c', {
        ...settings,
        extraArgs: [
          ...[
            '--memory-cache-bytes',
            String(caches.memory),
            '--manifest-cache-bytes',
            String(caches.manifest),
          ],
          ...['--blob-cache-bytes', String(caches.blob)],
        ],
      })
      replicas.push(reader)
      const pid = reader.process.pid!
      let peak = await rssBytes(pid)
      const atStart = peak
      let failedReads = 0
      let read = 0
      const pagePaths = slugsOf(size.readPages).map(urlOf)
      const readAtRandom = async () => {
        while (read < size.reads) {
          read++
          const target = readSlugs[Math.floor(Math.random() * readSlugs.length)]!
          const path = pagePaths[Math.floor(Math.random() * pagePaths.length)]!
          const answer = await http(reader.port, 'GET', path, {
            host: `${target}.${baseDomain}`,
            headers: { 'accept-encoding': 'br, gzip' },
          }).catch(() => undefined)
          if (answer?.status !== 200) failedReads++
          if (read % 200 === 0) peak = Math.max(peak, await rssBytes(pid))
        }
      }
      await Promise.all(Array.from({ length: 8 }, readAtRandom))
      peak = Math.max(peak, await rssBytes(pid))
      const diskCache = await folderBytes(join(reader.dataDir, 's3-blobs', 'cache'))
      const bound = caches.memory + caches.manifest + fixedOverheadBytes
      cases.check(failedReads === 0, () => `random reads: ${failedReads} of ${read} did not answer 200`)
      cases.check(
        peak <= bound,
        () =>
          `RSS reached ${(peak / MB).toFixed(0)} MB, over the caches' ${(caches.memory + caches.manifest) / MB} MB + ${fixedOverheadBytes / MB} MB`,
      )
      cases.check(
        diskCache <= caches.blob,
        () =>
          `the S3 read cache holds ${(diskCache / MB).toFixed(1)} MB, over --blob-cache-bytes ${caches.blob / MB} MB`,
      )
      figures[`${read} random reads of ${size.readProjects}×${size.readPages} pages`] =
        `RSS ${(atStart / MB).toFixed(0)} → peak ${(peak / MB).toFixed(0)} MB, bound ${(bound / MB).toFixed(0)} MB (caches ${(caches.memory + caches.manifest) / MB} + ${fixedOverheadBytes / MB})`
      figures['S3 read cache'] = `${(diskCache / MB).toFixed(1)} MB of ${caches.blob / MB} MB`
    } catch (error) {
      cases.fail(`set-up: ${(error as Error).stack ?? String(error)}`)
    } finally {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
    }
    return cases.report(figures)
  },
}
