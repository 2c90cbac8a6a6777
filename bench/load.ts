/**
 * What the serving benches share: pinning a server to core 0 and its load to core 1 (`taskset`), wrk's
 * report read into figures, and a process tree's CPU time from /proc (a figure a busy machine does not
 * skew the way it skews requests per second).
 */
import { execFile, spawnSync } from 'node:child_process'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'

/** Whether `command` is on PATH. */
const onPath = (command: string): boolean =>
  spawnSync('sh', ['-c', `command -v ${command}`])
    .stdout.toString()
    .trim() !== ''

/** Whether processes can be pinned: `taskset` on PATH and a second core for the load generator. */
export const canPin = availableParallelism() >= 2 && onPath('taskset')
export const hasWrk = onPath('wrk')
const hasChrt = onPath('chrt')

/** `command args` pinned to `core` when pinning is possible. */
export function pinned(core: number, command: string, args: string[]): [string, string[]] {
  return canPin ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]
}

/**
 * `command args` pinned to `core` and, where util-linux's `chrt` is, in Linux's `SCHED_IDLE` class: it
 * runs only while nothing else on the core wants to. For a load generator that shares its core with the
 * client that measures: the measuring client is never kept waiting by it, as on the web, where readers
 * and the load come from different machines.
 */
export function pinnedBehind(core: number, command: string, args: string[]): [string, string[]] {
  const [pinnedCommand, pinnedArgs] = pinned(core, command, args)
  return hasChrt ? ['chrt', ['--idle', '0', pinnedCommand, ...pinnedArgs]] : [pinnedCommand, pinnedArgs]
}

const clockTicks = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100

/**
 * CPU seconds used so far by `pid` and every process it started (nginx's worker; taskset's child), from
 * /proc: the cost of each request whatever else the machine is doing.
 */
export async function treeCpuSeconds(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    let seconds = (Number(fields[11]) + Number(fields[12])) / clockTicks
    const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')
    for (const child of children.split(' ').filter(Boolean))
      seconds += (await treeCpuSeconds(Number(child))) ?? 0
    return seconds
  } catch {
    return undefined
  }
}

/** wrk's latency (`812.00us`, `1.20ms`, `2.01s`) in milliseconds. */
export function milliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text)
  if (!match) return Number.NaN
  const value = Number(match[1])
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value
}

export interface LoadFigures {
  requests: number
  requestsPerSecond: number
  /** Latency percentiles in milliseconds (wrk reports them to the hundredth of a microsecond). */
  p50: number
  p99: number
  /** Answers other than 2xx/3xx, and socket errors. */
  errors: number
  /**
   * Every answer's latency, as wrk recorded it (by the microsecond): runs of one condition merge into
   * one distribution (`mergeLatencies`), whose percentiles weigh each answer once. Empty from autocannon.
   */
  latencies: Latencies
}

/** A latency distribution: how many answers took each whole number of microseconds. */
export type Latencies = Map<number, number>

/**
 * Lua for wrk's `done()` that prints every latency wrk recorded, as `LATENCIES µs:count,…` (`latency(i)`
 * is the i-th microsecond value that has answers, and its count).
 */
const printLatencies = `done = function(summary, latency, requests)
  local parts = {}
  for i = 1, #latency do
    local value, count = latency(i)
    parts[#parts + 1] = value .. ":" .. count
  end
  io.write("LATENCIES " .. table.concat(parts, ",") .. "\\n")
end
`

/** The distribution in `printLatencies`' line of wrk's output (empty when there is none). */
export function parseLatencies(output: string): Latencies {
  const latencies: Latencies = new Map()
  const line = /^LATENCIES (.*)$/m.exec(output)?.[1]
  for (const pair of line ? line.split(',') : []) {
    const [value, count] = pair.split(':').map(Number)
    if (value !== undefined && count !== undefined && Number.isFinite(value) && count > 0)
      latencies.set(value, (latencies.get(value) ?? 0) + count)
  }
  return latencies
}

/** The runs' distributions as one: each answer of each run counted once. */
export function mergeLatencies(runs: readonly Latencies[]): Latencies {
  const merged: Latencies = new Map()
  for (const run of runs)
    for (const [value, count] of run) merged.set(value, (merged.get(value) ?? 0) + count)
  return merged
}

/**
 * The `percent` percentile of `latencies` in milliseconds, ranked as wrk ranks it (the smallest value
 * with at least `round(percent% of all + 0.5)` answers at or below it); NaN when there are none.
 */
export function percentile(latencies: Latencies, percent: number): number {
  let total = 0
  for (const count of latencies.values()) total += count
  if (total === 0) return Number.NaN
  const rank = Math.round((percent / 100) * total + 0.5)
  let seen = 0
  for (const value of [...latencies.keys()].sort((a, b) => a - b)) {
    seen += latencies.get(value) ?? 0
    if (seen >= rank) return value / 1000
  }
  return Number.NaN
}

export interface LoadOptions {
  connections: number
  seconds: number
  /**
   * Each connection waits this long on average after an answer before its next request: readers
   * arriving at a steady pace rather than as fast as the server answers. Each pause is drawn from an
   * exponential distribution (`exponentialPause`), so requests arrive independently, as readers do,
   * not in step. wrk only; undefined saturates.
   */
  pauseMs?: number
}

/**
 * A Lua expression for wrk's `delay()`: a pause of `meanMs` on average, drawn from an exponential
 * distribution (in whole milliseconds, as wrk takes them). With a fixed pause, connections that began
 * together stay in step and their requests arrive in bursts, a load no site's readers make.
 */
export const exponentialPause = (meanMs: number): string =>
  `math.floor(-math.log(1 - math.random()) * ${meanMs} + 0.5)`

/** Reads `wrk --latency`'s report. */
export function parseWrkReport(output: string): LoadFigures {
  const percentile = (percent: number) => {
    const text = new RegExp(`^\\s+${percent}%\\s+(\\S+)`, 'm').exec(output)?.[1]
    return text ? milliseconds(text) : Number.NaN
  }
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)
  return {
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? 0),
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]),
    p50: percentile(50),
    p99: percentile(99),
    errors:
      Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0) +
      (socketErrors ? socketErrors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0),
    latencies: parseLatencies(output),
  }
}

/**
 * Loads `url` (sent with `Host: host`) from core 1: wrk when installed, else autocannon (which saturates
 * first, reports whole milliseconds and cannot pause between requests).
 */
export async function load(url: string, host: string, options: LoadOptions): Promise<LoadFigures> {
  if (!hasWrk) {
    const result = await autocannon({
      url,
      connections: options.connections,
      duration: options.seconds,
      headers: { host },
    })
    return {
      requests: result.requests.total,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx,
      latencies: new Map(),
    }
  }
  const script = join(tmpdir(), `bench-load-${process.pid}.lua`)
  await writeFile(
    script,
    options.pauseMs === undefined
      ? printLatencies
      : `math.randomseed(os.time())\ndelay = function()\n  return ${exponentialPause(options.pauseMs)}\nend\n${printLatencies}`,
  )
  try {
    const [command, args] = pinned(1, 'wrk', [
      '-t1',
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      '--latency',
      '-s',
      script,
      '-H',
      `Host: ${host}`,
      url,
    ])
    const output = await new Promise<string>((resolve, reject) =>
      execFile(command, args, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    )
    return parseWrkReport(output)
  } finally {
    await rm(script, { force: true })
  }
}
