/**
 * `npm run bench:insights`: reader events into one docs-server while readers are served. A page is read
 * at 10 connections by wrk in three conditions, each for the run's length: alone; while 1,000 reader
 * events a second (views, searches, feedback, copies; 2,000 client addresses behind a trusted proxy, so
 * the per-client rate limit holds) go to the site's `/_docs/events` from another process; and, between
 * the two, while the same events are sent with `DNT: 1`, which the server answers at once and keeps
 * nowhere. That third condition is the floor: what 1,000 requests a second cost readers whatever they
 * carry, so `with events / opted out` is what keeping an event costs them. The three conditions take
 * turns in short runs, `--rounds N` of each (default 10 of 3 s: the 30 s of events the load test asks
 * for), each round starting with the next condition; each condition's p50 and p99 are those of all its
 * runs' answers pooled (wrk's own latencies, to the microsecond). On a shared VM one run's p99 of the
 * same condition ranged from 0.5 to 6 ms: a run is a sample of the machine's minute as much as of the
 * server, and only many short runs in turns let the machine's hiccups fall on every condition alike.
 * docs-server is pinned to core 0, wrk and the event sender to core 1 (`taskset`), so what the readers
 * wait for is the server's work, not the load generators'; the event sender runs in `SCHED_IDLE`
 * (`chrt`), so the readers' wrk, which measures, never waits behind it on the core they share. A
 * warm-up sends events too, so the event path is compiled before the first round. Prints each
 * condition's pooled p50 and p99 with the range of its runs' p99, their ratios, docs-server's CPU
 * time per read, per event and per opted-out event (from /proc, steady whatever else the machine
 * does), the events accepted, and whether the daily
 * aggregates the API reports equal what was sent, count for count. It prints figures; it does not assert.
 *
 * Readers run twice: saturating (as fast as the server answers, so the CPU the events take shows in
 * full) and steady (each connection pauses `--pause-ms N` on average after an answer, default 10, each
 * pause drawn from an exponential distribution: about 1,000 reads a second, arriving independently, as
 * readers arrive at a site).
 *
 * `--seconds N` (or `BENCH_SECONDS=N`) sets each run's length (default 3); `--rounds N` the runs of
 * each condition (default 10); `--rate N` the events a second (default 1000); `--readers
 * saturating|steady` makes one of the two reader runs, `--readers none` none (the events' CPU
 * alone); `BENCH_CPU_PROF=DIR` writes docs-server's CPU profile there; `BENCH_SERVER_NODE_FLAGS`
 * passes Node flags to it (`--trace-gc-nvp`). Needs wrk (`apt-get install wrk`), and taskset with two
 * cores to pin.
 * Run as `node dist/bench/insights.js`.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { Agent, type IncomingHttpHeaders, request } from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import getPort from 'get-port'
import { fromPackageRoot } from '../compiler/assets.js'
import { threadCpuMs } from '../compiler/pool/thread-cpu.js'
import {
  canPin,
  exponentialPause,
  hasWrk,
  type LoadFigures,
  load,
  mergeLatencies,
  percentile,
  pinned,
  pinnedBehind,
  treeCpuSeconds,
} from './load.js'
import { createServerToken } from './server-token.js'

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string' },
    rate: { type: 'string' },
    'pause-ms': { type: 'string' },
    readers: { type: 'string' },
    rounds: { type: 'string' },
  },
})
const seconds = Number(flags.seconds ?? process.env.BENCH_SECONDS ?? 3)
/** How many times the three reader conditions take turns. */
const rounds = Number(flags.rounds ?? 10)
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds takes a whole number of 1 or more, not ${flags.rounds}`)
const rate = Number(flags.rate ?? 1000)
/** How long each steady reader's connection waits after an answer: about 1,000 reads a second in all. */
const pauseMs = Number(flags['pause-ms'] ?? 10)
/** Which reader runs to make: `saturating`, `steady`, `both` (the default) or `none` (events alone). */
const readerRuns = flags.readers ?? 'both'
if (!['saturating', 'steady', 'both', 'none'].includes(readerRuns))
  throw new Error(`--readers takes saturating, steady, both or none, not ${readerRuns}`)
/** The reader runs to make, as whether each is steady. */
const readerKinds = { both: [false, true], saturating: [false], steady: [true], none: [] }[readerRuns] ?? []
const pageCount = 20
const addresses = 2000
const agent = new Agent({ keepAlive: true, maxSockets: 64 })

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

function call(
  port: number,
  method: string,
  path: string,
  options: { host: string; headers?: Record<string, string>; body?: Buffer },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { host: options.host, ...options.headers }
    if (options.body) headers['content-length'] = options.body.length
    const outgoing = request({ port, host: '127.0.0.1', method, path, headers, agent }, (response) => {
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

function site(): Map<string, Buffer> {
  const pages = ['index', ...Array.from({ length: pageCount - 1 }, (_, index) => `pages/page-${index}`)]
  const files = new Map<string, Buffer>()
  files.set(
    'docs.json',
    Buffer.from(JSON.stringify({ name: 'Bench', navigation: { groups: [{ group: 'Pages', pages }] } })),
  )
  const paragraph = 'Docs hosting compiles MDX once and serves static files by Host and path. '
  files.set('index.mdx', Buffer.from(`---\ntitle: Home\n---\n\n${paragraph.repeat(40)}\n`))
  for (let index = 0; index < pageCount - 1; index++)
    files.set(
      `pages/page-${index}.mdx`,
      Buffer.from(
        `---\ntitle: Page ${index}\n---\n\n${paragraph.repeat(8)}\n\n\`\`\`ts\nconst page = ${index}\n\`\`\`\n`,
      ),
    )
  return files
}

async function deploy(
  port: number,
  apiHost: string,
  token: string,
  files: Map<string, Buffer>,
): Promise<void> {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const manifest = [...files].map(([path, bytes]) => ({ path, sha256: sha256(bytes), size: bytes.length }))
  const created = await call(port, 'POST', '/projects/slug/bench/deployments', {
    host: apiHost,
    headers: auth,
    body: Buffer.from(JSON.stringify({ files: manifest })),
  })
  const { deployment } = JSON.parse(created.body.toString()) as { deployment: { id: string } }
  const boundary = 'bench-boundary'
  const parts: Buffer[] = []
  for (const [path, bytes] of files)
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${path}"; filename="f"\r\n\r\n`),
      bytes,
      Buffer.from('\r\n'),
    )
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  const uploaded = await call(port, 'POST', `/projects/slug/bench/deployments/${deployment.id}/files/batch`, {
    host: apiHost,
    headers: {
      authorization: auth.authorization,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body: Buffer.concat(parts),
  })
  if (uploaded.status !== 200) throw new Error(`upload failed: ${uploaded.body.toString()}`)
  const finalized = await call(port, 'POST', `/projects/slug/bench/deployments/${deployment.id}/finalize`, {
    host: apiHost,
    headers: auth,
    body: Buffer.from(JSON.stringify({ waitSeconds: 60 })),
  })
  if (finalized.status >= 400) throw new Error(`finalize failed: ${finalized.body.toString()}`)
}

/**
 * The home page read at 10 connections for `seconds` from core 1: as fast as the server answers
 * (`steady` false), or with each connection pausing `pauseMs` after every answer, as readers arrive at a site.
 * Also the server's CPU time over the run (all its threads), for a figure a busy machine does not skew.
 */
async function readers(
  port: number,
  host: string,
  server: ChildProcess,
  steady: boolean,
): Promise<LoadFigures & { cpuSeconds: number }> {
  const before = await serverCpu(server)
  const figures = await load(`http://127.0.0.1:${port}/`, host, {
    connections: 10,
    seconds,
    ...(steady ? { pauseMs } : {}),
  })
  return { ...figures, cpuSeconds: (await serverCpu(server)) - before }
}

/** One run of readers: wrk's figures and docs-server's CPU seconds over it. */
type ReaderRun = Awaited<ReturnType<typeof readers>>

/** CPU seconds docs-server's serving (main) thread has used so far. */
const servingThreadCpu = (server: ChildProcess): number =>
  ((server.pid === undefined ? undefined : threadCpuMs(server.pid, server.pid)) ?? Number.NaN) / 1000

/** CPU seconds docs-server (and taskset's child, when pinned) has used so far. */
const serverCpu = async (server: ChildProcess): Promise<number> =>
  (server.pid === undefined ? undefined : await treeCpuSeconds(server.pid)) ?? Number.NaN

/** What the events sent should add up to, by the report's tables. */
interface Expected {
  views: Map<string, number>
  searches: Map<string, number>
  none: Map<string, number>
  helpful: Map<string, number>
  notHelpful: Map<string, number>
  copies: Map<string, number>
  visitors: Set<string>
}

const emptyExpected = (): Expected => ({
  views: new Map(),
  searches: new Map(),
  none: new Map(),
  helpful: new Map(),
  notHelpful: new Map(),
  copies: new Map(),
  visitors: new Set(),
})

/** What one run of the sender sent and how it was answered. */
interface SentEvents {
  sent: number
  accepted: number
  /** Answers other than 204, by status. */
  refused: [number, number][]
  /** The sending window, to the second. */
  seconds: number
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)

/** The pages events name: the site's paths, as the site script sends them. */
const eventPaths = ['', ...Array.from({ length: pageCount - 1 }, (_, index) => `pages/page-${index}/`)]

type BenchEvent =
  | { type: 'view'; path: string; screen: string }
  | { type: 'search'; query: string; results: number }
  | { type: 'feedback'; path: string; helpful: boolean }
  | { type: 'copy'; path: string }

/**
 * The `n`-th event the sender sends, and the client it comes from: six views in ten, two searches
 * (one query in seven finds nothing), a feedback, a code copy. The wrk script (wrkEventScript) makes
 * the same sequence.
 */
function eventAt(n: number): { address: string; agentName: string; event: BenchEvent } {
  const address = `10.0.${Math.floor((n % addresses) / 256)}.${(n % addresses) % 256}`
  const agentName = `bench-reader/${n % 3}`
  const path = eventPaths[n % eventPaths.length] ?? ''
  const kind = n % 10
  const event: BenchEvent =
    kind < 6
      ? { type: 'view', path, screen: 'desktop' }
      : kind < 8
        ? { type: 'search', query: `query ${n % 7}`, results: n % 7 === 0 ? 0 : 3 }
        : kind === 8
          ? { type: 'feedback', path, helpful: n % 4 !== 0 }
          : { type: 'copy', path }
  return { address, agentName, event }
}

/** Adds an accepted event to what the report should show. */
function expectAccepted(expected: Expected, { address, agentName, event }: ReturnType<typeof eventAt>): void {
  if (event.type === 'view') {
    bump(expected.views, event.path)
    expected.visitors.add(`${address} ${agentName}`)
  } else if (event.type === 'search') {
    bump(expected.searches, event.query)
    if (event.results === 0) bump(expected.none, event.query)
  } else if (event.type === 'feedback')
    bump(event.helpful ? expected.helpful : expected.notHelpful, event.path)
  else bump(expected.copies, event.path)
}

/**
 * wrk's script for the events: the sequence of `eventAt`, each connection pausing 10 ms on average
 * after an answer (drawn as readers' are, so events arrive independently of them and of each other),
 * until `seconds` have passed on the monotonic clock; then every connection waits out the run, so no
 * event is in flight when wrk stops. It counts answers by status and prints them as one line, `EVENTS {json}`.
 */
function wrkEventScript(optedOut: boolean): string {
  // Seeded apart from the readers' script, which wrk starts in the same second.
  return `math.randomseed(os.time() + 7919)
-- The monotonic clock through LuaJIT's FFI (wrk runs LuaJIT): os.time() counts whole seconds, and a
-- window that ends anywhere in its last second left up to a second of the readers' run without events.
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock, bench_timespec *time);
]]
local timespec = ffi.new("bench_timespec")
local function now()
  ffi.C.clock_gettime(1, timespec)
  return tonumber(timespec.tv_sec) + tonumber(timespec.tv_nsec) / 1e9
end
local paths = {${eventPaths.map((path) => JSON.stringify(path)).join(', ')}}
local counter = 0
local started = nil
sent = 0
accepted = 0
statuses = {}
local function stopped()
  return started ~= nil and now() - started >= ${seconds}
end
request = function()
  -- wrk calls request() once to check what it returns, without sending it: that call, and any after
  -- the window (a connection wrk opens again), ask for the home page, which is no event (answered 200).
  if started == nil then
    started = now()
    return wrk.format("GET", "/")
  end
  if stopped() then return wrk.format("GET", "/") end
  local n = counter
  counter = counter + 1
  sent = counter
  local a = n % ${addresses}
  local path = paths[(n % #paths) + 1]
  local kind = n % 10
  local body
  if kind < 6 then
    body = '{"type":"view","path":"' .. path .. '","screen":"desktop"}'
  elseif kind < 8 then
    body = '{"type":"search","query":"query ' .. (n % 7) .. '","results":' .. ((n % 7 == 0) and 0 or 3) .. '}'
  elseif kind == 8 then
    body = '{"type":"feedback","path":"' .. path .. '","helpful":' .. ((n % 4 ~= 0) and 'true' or 'false') .. '}'
  else
    body = '{"type":"copy","path":"' .. path .. '"}'
  end
  return wrk.format("POST", "/_docs/events", {
    ["X-Forwarded-For"] = "10.0." .. math.floor(a / 256) .. "." .. (a % 256),
    ["User-Agent"] = "bench-reader/" .. (n % 3),
    ["Content-Type"] = "text/plain",${optedOut ? '\n    ["DNT"] = "1",' : ''}
  }, body)
end
delay = function()
  if stopped() then return 3600000 end
  return ${exponentialPause(10)}
end
response = function(status)
  if status == 204 then
    accepted = accepted + 1
  elseif status ~= 200 then
    statuses[status] = (statuses[status] or 0) + 1
  end
end
local threads = {}
setup = function(thread)
  table.insert(threads, thread)
end
done = function()
  local thread = threads[1]
  local refused = {}
  for status, n in pairs(thread:get("statuses")) do
    table.insert(refused, "[" .. status .. "," .. n .. "]")
  end
  io.write('EVENTS {"sent":' .. thread:get("sent") .. ',"accepted":' .. thread:get("accepted") .. ',"refused":[' .. table.concat(refused, ",") .. ']}\\n')
end
`
}

/**
 * Sends one run of events with wrk from core 1: a C load generator takes far less of the core it
 * shares with the readers' wrk than a Node sender, whose CPU showed up in the readers' latencies. Eleven
 * connections pausing 10 ms each: a little over 1,000 events a second. The events sent are the first
 * `sent` of `eventAt`'s sequence. `optedOut` sends each with `DNT: 1`: answered 204 and kept nowhere.
 */
async function sendEvents(port: number, host: string, optedOut = false): Promise<SentEvents> {
  const script = join(tmpdir(), `bench-events-${process.pid}.lua`)
  await writeFile(script, wrkEventScript(optedOut))
  try {
    const started = performance.now()
    const [command, args] = pinnedBehind(1, 'wrk', [
      '-t1',
      `-c${Math.ceil(rate / 100) + 1}`,
      `-d${seconds + 2}s`,
      '-s',
      script,
      '-H',
      `Host: ${host}`,
      `http://127.0.0.1:${port}/`,
    ])
    const [output, errors] = await new Promise<[string, string]>((resolve, reject) =>
      execFile(command, args, (error, stdout, stderr) => (error ? reject(error) : resolve([stdout, stderr]))),
    )
    const line = /^EVENTS (.*)$/m.exec(output)?.[1]
    if (!line) throw new Error(`wrk printed no event counts:\n${output}${errors}`)
    const counts = JSON.parse(line) as Omit<SentEvents, 'seconds'>
    // The run less the 2 s every connection waits out at its end.
    return { ...counts, seconds: Math.min(seconds, (performance.now() - started) / 1000) }
  } finally {
    await rm(script, { force: true })
  }
}

interface Report {
  days: { views: number; visitors: number }[]
  pages: { key: string; total: number }[]
  searches: { key: string; total: number }[]
  searchesWithoutResults: { key: string; total: number }[]
  feedback: { path: string; helpful: number; notHelpful: number }[]
  copies: { key: string; total: number }[]
}

/** The tables that differ from what was sent, by name (none: exact). */
function mismatches(report: Report, expected: Expected): string[] {
  const same = (name: string, rows: { key: string; total: number }[], map: Map<string, number>) =>
    rows.length === map.size && rows.every((row) => map.get(row.key) === row.total) ? [] : [name]
  const helpful = new Map(
    report.feedback.map((row) => [row.path, row.helpful] as const).filter(([, n]) => n > 0),
  )
  const notHelpful = new Map(
    report.feedback.map((row) => [row.path, row.notHelpful] as const).filter(([, n]) => n > 0),
  )
  const sameMap = (name: string, got: Map<string, number>, want: Map<string, number>) =>
    got.size === want.size && [...want].every(([key, total]) => got.get(key) === total) ? [] : [name]
  const visitors = report.days.reduce((sum, day) => sum + day.visitors, 0)
  return [
    ...same('pages', report.pages, expected.views),
    ...same('searches', report.searches, expected.searches),
    ...same('searches without results', report.searchesWithoutResults, expected.none),
    ...sameMap('helpful', helpful, expected.helpful),
    ...sameMap('not helpful', notHelpful, expected.notHelpful),
    ...same('copies', report.copies, expected.copies),
    ...(visitors === expected.visitors.size ? [] : [`visitors (${visitors} ≠ ${expected.visitors.size})`]),
  ]
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-insights-'))
  let server: ChildProcess | undefined
  try {
    const port = await getPort({ host: '127.0.0.1' })
    const apiHost = `localhost:${port}`
    const settings = ['--data-dir', join(work, 'data'), '--port', String(port), '--base-domain', apiHost]
    const serverMain = fromPackageRoot('dist', 'bundle', 'server', 'main.js')
    const token = createServerToken(serverMain, settings)
    server = spawn(
      ...pinned(0, process.execPath, [
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
        ...(process.env.BENCH_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
        serverMain,
        ...settings,
        '--api-host',
        apiHost,
        '--trust-proxy',
        '127.0.0.1',
        '--log-level',
        'warn',
      ]),
      { stdio: 'inherit' },
    )
    for (let attempt = 0; ; attempt++) {
      const answer = await call(port, 'GET', '/health', { host: apiHost }).catch(() => undefined)
      if (answer && answer.status < 500) break
      if (attempt > 1200) throw new Error('docs-server did not start')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const created = await call(port, 'POST', '/projects/', {
      host: apiHost,
      headers: auth,
      body: Buffer.from(JSON.stringify({ name: 'Bench', slug: 'bench' })),
    })
    const project = JSON.parse(created.body.toString()) as { id: string }
    await deploy(port, apiHost, token, site())
    const siteHost = `bench.${apiHost}`

    console.log(
      `insights bench: ${rounds} rounds of ${seconds} s runs (alone, with opted-out events, with events), ${rate} events/s from ${addresses} client addresses; readers at 10 connections by wrk, ${readerKinds.map((steady) => (steady ? `pausing ${pauseMs} ms after each answer` : 'saturating')).join(', then ') || 'none (events alone)'}; ${
        canPin
          ? 'docs-server pinned to core 0, readers and event sender to core 1 (the sender in SCHED_IDLE where chrt is)'
          : 'not pinned (needs taskset and 2 cores)'
      }; load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}`,
    )
    const runs: SentEvents[] = []
    // Warm-up: every answer prepared and the event path compiled. Without events here, the first
    // round's event runs were the JIT's: readers' p99 two to six times the later rounds'.
    const [, warmUp] = await Promise.all([readers(port, siteHost, server, false), sendEvents(port, siteHost)])
    runs.push(warmUp)
    const line = (name: string, figures: ReaderRun[]) => {
      const latencies = mergeLatencies(figures.map((one) => one.latencies))
      const pooled = { p50: percentile(latencies, 50), p99: percentile(latencies, 99) }
      const total = (figure: (one: ReaderRun) => number) => figures.reduce((sum, one) => sum + figure(one), 0)
      const requests = total((one) => one.requests)
      const errors = total((one) => one.errors)
      const cpuSeconds = total((one) => one.cpuSeconds)
      const slots = figures.map((one) => one.p99).sort((a, b) => a - b)
      console.log(
        `${name.padEnd(34)} ${(total((one) => one.requestsPerSecond) / figures.length).toFixed(0).padStart(6)} req/s  p50 ${pooled.p50.toFixed(3)} ms  p99 ${pooled.p99.toFixed(3)} ms (one run's p99: ${slots[0]?.toFixed(2)} to ${slots.at(-1)?.toFixed(2)}, median ${slots[Math.floor((slots.length - 1) / 2)]?.toFixed(2)})  (${requests} requests, ${errors} errors, ${((cpuSeconds * 1e6) / Math.max(requests, 1)).toFixed(1)} µs CPU each)`,
      )
      return pooled
    }
    const optedOutRuns: SentEvents[] = []
    // Saturating readers: the server has no spare CPU, so any work the events take shows in full; then
    // readers at a steady pace, as a site's readers come: what a reader waits while events arrive.
    for (const steady of readerKinds) {
      const name = steady ? 'steady readers' : 'saturating readers'
      const alone: ReaderRun[] = []
      const optedOut: ReaderRun[] = []
      const withEvents: ReaderRun[] = []
      const served = server
      const conditions = [
        async () => alone.push(await readers(port, siteHost, served, steady)),
        async () => {
          const [floor, ignored] = await Promise.all([
            readers(port, siteHost, served, steady),
            sendEvents(port, siteHost, true),
          ])
          optedOut.push(floor)
          optedOutRuns.push(ignored)
        },
        async () => {
          const [kept, sender] = await Promise.all([
            readers(port, siteHost, served, steady),
            sendEvents(port, siteHost),
          ])
          withEvents.push(kept)
          runs.push(sender)
        },
      ]
      // Each round starts with the next condition: what one run leaves the next (the garbage of its
      // events, a collection due) falls on each condition alike, not always on the one after events.
      for (let round = 0; round < rounds; round++)
        for (let turn = 0; turn < conditions.length; turn++)
          await conditions[(round + turn) % conditions.length]?.()
      const aloneFigures = line(`${name} alone:`, alone)
      const floorFigures = line(`${name} with opted-out events:`, optedOut)
      const eventsFigures = line(`${name} with events:`, withEvents)
      console.log(
        `  p99 with events / alone: ${(eventsFigures.p99 / aloneFigures.p99).toFixed(2)} (target <= 1.10); with opted-out events / alone: ${(floorFigures.p99 / aloneFigures.p99).toFixed(2)}; with events / with opted-out events: ${(eventsFigures.p99 / floorFigures.p99).toFixed(2)}`,
      )
    }
    // Events with no readers: the server's CPU time per event, in all and on the serving thread; opted-out
    // ones first, what any request of an event's size costs.
    const costs = async (server: ChildProcess, optedOut: boolean) => {
      const cpuBefore = await serverCpu(server)
      const servingBefore = servingThreadCpu(server)
      const sent = await sendEvents(port, siteHost, optedOut)
      const each = (seconds: number) => ((seconds * 1e6) / Math.max(sent.accepted, 1)).toFixed(1)
      console.log(
        `${optedOut ? 'opted-out events' : 'events'} alone: ${sent.accepted} answered 204; docs-server CPU ${each((await serverCpu(server)) - cpuBefore)} µs each, ${each(servingThreadCpu(server) - servingBefore)} µs of it on the serving thread`,
      )
      return sent
    }
    optedOutRuns.push(await costs(server, true))
    runs.push(await costs(server, false))
    const optedOutSent = optedOutRuns.reduce((sum, run) => sum + run.sent, 0)
    const optedOutAnswered = optedOutRuns.reduce((sum, run) => sum + run.accepted, 0)
    console.log(`opted-out events: ${optedOutSent} sent, ${optedOutAnswered} answered 204 (kept nowhere)`)
    // Every run's wrk starts the sequence afresh: the report should show each run's first `sent` events.
    const expected = emptyExpected()
    for (const run of runs) for (let n = 0; n < run.sent; n++) expectAccepted(expected, eventAt(n))
    const sum = (count: (run: SentEvents) => number) => runs.reduce((total, run) => total + count(run), 0)
    const sent = sum((run) => run.sent)
    const accepted = sum((run) => run.accepted)
    const sending = sum((run) => run.seconds)
    const refused = runs.flatMap((run) => run.refused)
    console.log(
      `events: ${sent} sent in ${sending.toFixed(1)} s (${Math.round(sent / sending)}/s), ${accepted} accepted${
        refused.length ? `, refused: ${refused.map(([status, n]) => `${n}×${status}`).join(', ')}` : ''
      }`,
    )
    const answer = await call(port, 'GET', `/projects/${project.id}/insights?limit=500`, {
      host: apiHost,
      headers: auth,
    })
    const report = JSON.parse(answer.body.toString()) as Report
    const wrong = mismatches(report, expected)
    console.log(
      accepted < sent
        ? 'aggregates not compared: not every event sent was accepted'
        : `aggregates exact: ${wrong.length === 0 ? 'yes' : `no (${wrong.join(', ')})`}`,
    )
  } finally {
    if (server) await stop(server)
    agent.destroy()
    await rm(work, { recursive: true, force: true })
  }
}

if (!hasWrk)
  throw new Error('bench:insights needs wrk on the PATH (apt-get install wrk): it loads the server with it')
await main()
