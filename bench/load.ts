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

/** Whether processes can be pinned: `taskset` on PATH and a second core for the load generator. */
export const canPin =
  availableParallelism() >= 2 && spawnSync('sh', ['-c', 'command -v taskset']).stdout.toString().trim() !== ''
export const hasWrk = spawnSync('sh', ['-c', 'command -v wrk']).stdout.toString().trim() !== ''

/** `command args` pinned to `core` when pinning is possible. */
export function pinned(core: number, command: string, args: string[]): [string, string[]] {
  return canPin ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]
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
    }
  }
  const script = options.pauseMs === undefined ? undefined : join(tmpdir(), `bench-pause-${process.pid}.lua`)
  if (script && options.pauseMs !== undefined)
    await writeFile(
      script,
      `math.randomseed(os.time())\ndelay = function()\n  return ${exponentialPause(options.pauseMs)}\nend\n`,
    )
  try {
    const [command, args] = pinned(1, 'wrk', [
      '-t1',
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      '--latency',
      ...(script ? ['-s', script] : []),
      '-H',
      `Host: ${host}`,
      url,
    ])
    const output = await new Promise<string>((resolve, reject) =>
      execFile(command, args, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    )
    return parseWrkReport(output)
  } finally {
    if (script) await rm(script, { force: true })
  }
}
