/**
 * PostgreSQL and Redis lost under read load, on two replicas (PostgreSQL + S3 + Redis). The suite runs
 * its own PostgreSQL cluster (initdb + pg_ctl on a free port, in a temporary folder, as the `postgres`
 * user since initdb refuses root) and its own `redis-server`, never the shared ones, and the s3rver the
 * other suites use. Readers load pages of a site both replicas have already resolved, all the time:
 * - every connection terminated (`pg_terminate_backend`): the API answers again without a restart;
 * - PostgreSQL stopped (3 s short, 10 s long): no replica exits, every read of the resolved site answers
 *   200, the API answers 503 with `Retry-After` saying the database is unreachable (never 500), and
 *   once PostgreSQL is back every replica's API and `/ready` answer again without a restart; a push
 *   then succeeds;
 * - Redis stopped: rate limits fall back to each process, and nothing else fails (API, reads, a push).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { chown, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { freePort } from '../cli/helpers/docs-server.js'
import {
  type HttpAnswer,
  http,
  operatorToken,
  push,
  type Replica,
  type ReplicaSettings,
  startReplica,
  stopReplica,
} from '../e2e/replicas.js'
import { startS3Server } from '../server/blobs/s3-server.js'
import { evidence } from './evidence.js'
import { versionSite } from './load.js'
import { Cases, type Suite } from './suite.js'

const run = promisify(execFile)
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A PostgreSQL cluster of the suite's own, in a temporary folder, run as the `postgres` user. */
class OwnPostgres {
  private constructor(
    readonly folder: string,
    readonly port: number,
    readonly bin: string,
  ) {}

  static async create(): Promise<OwnPostgres> {
    const { stdout } = await run('sh', ['-c', 'ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1'])
    const bin = stdout.trim()
    if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql/*/bin')
    const folder = await mkdtemp(join(tmpdir(), 'docs-reliability-pg-'))
    const cluster = new OwnPostgres(folder, await freePort(), bin)
    if (process.getuid?.() === 0) {
      const { stdout: ids } = await run('id', ['-u', 'postgres'])
      const { stdout: group } = await run('id', ['-g', 'postgres'])
      await chown(folder, Number(ids.trim()), Number(group.trim()))
    }
    await cluster.#as(`${bin}/initdb`, [
      '-D',
      join(folder, 'data'),
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
    ])
    return cluster
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`
  }

  /** Runs a PostgreSQL program as `postgres` when this process is root (initdb and pg_ctl refuse root). */
  #as(program: string, args: string[]) {
    return process.getuid?.() === 0
      ? run('runuser', ['-u', 'postgres', '--', program, ...args])
      : run(program, args)
  }

  start() {
    const options = `-p ${this.port} -k ${this.folder} -c listen_addresses=127.0.0.1 -c fsync=off`
    return this.#as(`${this.bin}/pg_ctl`, [
      ...['-D', join(this.folder, 'data'), '-l', join(this.folder, 'log'), '-o', options, '-w', 'start'],
    ])
  }

  stop() {
    return this.#as(`${this.bin}/pg_ctl`, ['-D', join(this.folder, 'data'), '-m', 'fast', '-w', 'stop'])
  }

  async dispose(): Promise<void> {
    await this.stop().catch(() => undefined)
    await rm(this.folder, { recursive: true, force: true })
  }
}

/** A `redis-server` of the suite's own on a free port, keeping nothing on disk. */
async function ownRedis(): Promise<{ url: string; process: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort()
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  for (let attempt = 0; ; attempt++) {
    const { stdout } = await run('redis-cli', ['-p', String(port), 'ping']).catch(() => ({ stdout: '' }))
    if (stdout.trim() === 'PONG') break
    if (attempt > 100 || child.exitCode !== null) throw new Error(`redis-server on ${port} never answered`)
    await wait(50)
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    process: child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

interface Reads {
  ok: number
  failed: string[]
}

/** Client loops reading `paths` of `slug` from every replica until `stop()`. */
function readLoad(replicas: readonly Replica[], slug: string, paths: readonly string[]) {
  const reads: Reads = { ok: 0, failed: [] }
  let running = true
  const loop = async (replica: Replica, offset: number) => {
    for (let turn = offset; running; turn++) {
      const path = paths[turn % paths.length]!
      const answer = await replica.site(slug, path).catch((error: Error) => error)
      if (!(answer instanceof Error) && answer.status === 200) reads.ok++
      else
        reads.failed.push(
          `${replica.name} ${path}: ${answer instanceof Error ? answer.message : `${answer.status} ${answer.text().slice(0, 120)}`}`,
        )
      await wait(10)
    }
  }
  const done = Promise.all(replicas.flatMap((replica) => [loop(replica, 0), loop(replica, 5)]))
  return {
    reads,
    stop: async () => {
      running = false
      await done
      return reads
    },
  }
}

/** The `error` of a JSON answer, if it is one. */
function errorOf(answer: HttpAnswer): string | undefined {
  try {
    const { error } = answer.json<{ error?: unknown }>()
    return typeof error === 'string' ? error : undefined
  } catch {
    return undefined
  }
}

const alive = (replica: Replica) => replica.process.exitCode === null && replica.process.signalCode === null

const describe = (answer: HttpAnswer | Error) =>
  answer instanceof Error ? answer.message : `${answer.status} ${answer.text().slice(0, 160)}`

/** Polls `replica`'s API until it answers 200; answers the seconds it took, or undefined past `limitMs`. */
async function recovery(replica: Replica, token: string, limitMs: number): Promise<number | undefined> {
  const started = performance.now()
  while (performance.now() - started < limitMs) {
    const answer = await replica.api('GET', '/projects/', token).catch(() => undefined)
    const ready = await http(replica.port, 'GET', '/ready').catch(() => undefined)
    if (answer?.status === 200 && ready?.status === 200) return (performance.now() - started) / 1000
    await wait(100)
  }
  return undefined
}

export const outages: Suite = {
  name: 'PostgreSQL + Redis outages (2 replicas)',
  async run({ setting, say }) {
    const cases = new Cases()
    const figures: Record<string, string | number> = {}
    const cleanups: (() => Promise<void>)[] = []
    const replicas: Replica[] = []
    const stopSeconds = setting === 'long' ? 10 : 3
    try {
      const postgres = await OwnPostgres.create()
      cleanups.push(() => postgres.dispose())
      await postgres.start()
      const redis = await ownRedis()
      cleanups.push(() => redis.stop())
      const s3 = await startS3Server({ after: (fn) => cleanups.push(fn) })
      const settings: ReplicaSettings = {
        databaseUrl: postgres.url,
        databaseSchema: 'outage',
        blobStoreArgs: s3.args('outage'),
        extraArgs: ['--redis-url', redis.url],
      }
      cleanups.push(async () => {
        for (const replica of replicas) {
          await stopReplica(replica)
          evidence.output(`outages: replica ${replica.name} log`, replica.output())
        }
      })
      replicas.push(await startReplica('a', settings))
      replicas.push(await startReplica('b', settings))
      const [a, b] = replicas as [Replica, Replica]
      const token = await operatorToken(settings, 'outage@example.com')
      evidence.secret('session token', token)
      const slug = 'steady'
      const made = await a.api('POST', '/projects/', token, { name: slug, slug })
      if (made.status !== 201) throw new Error(`create project: ${made.status} ${made.text()}`)
      const first = await push(b, token, slug, versionSite(1, 5))
      if (first.finalized.status !== 200)
        throw new Error(`push: ${first.finalized.status} ${first.finalized.text()}`)
      const paths = ['/', '/page-1/', '/page-2/', '/page-3/', '/page-4/', '/images/version.svg', '/style.css']
      // Resolved on both replicas before anything is lost.
      for (const replica of replicas)
        for (const path of paths) {
          const answer = await replica.site(slug, path)
          if (answer.status !== 200) throw new Error(`${replica.name} ${path}: ${answer.status}`)
        }

      // 1. Every connection terminated.
      const load1 = readLoad(replicas, slug, paths)
      const admin = new pg.Client({ connectionString: postgres.url })
      await admin.connect()
      const terminated = await admin.query<{ count: string }>(
        "select count(pg_terminate_backend(pid)) as count from pg_stat_activity where pid <> pg_backend_pid() and backend_type = 'client backend'",
      )
      await admin.end()
      const afterTerminate: string[] = []
      for (const replica of replicas) {
        const answer = await replica.api('GET', '/projects/', token).catch((error: Error) => error)
        if (answer instanceof Error || (answer.status !== 200 && answer.status !== 503))
          afterTerminate.push(`${replica.name}: ${describe(answer)}`)
      }
      cases.check(
        afterTerminate.length === 0,
        () => `after pg_terminate_backend: ${afterTerminate.join('; ')}`,
      )
      for (const replica of replicas) {
        const seconds = await recovery(replica, token, 30_000)
        cases.check(
          seconds !== undefined,
          () => `${replica.name} did not answer again within 30 s of pg_terminate_backend`,
        )
        figures[`${replica.name} back after pg_terminate_backend`] =
          seconds === undefined ? 'never' : `${seconds.toFixed(1)} s`
      }
      const reads1 = await load1.stop()
      cases.check(
        reads1.failed.length === 0,
        () => `reads around pg_terminate_backend: ${reads1.failed.length} failed, first ${reads1.failed[0]}`,
      )
      figures['connections terminated'] = Number(terminated.rows[0]?.count ?? 0)
      say(
        `outages: ${figures['connections terminated']} connections terminated; ${reads1.ok} reads, ${reads1.failed.length} failed`,
      )

      // 2. PostgreSQL stopped under read load.
      const load2 = readLoad(replicas, slug, paths)
      await wait(300)
      await postgres.stop()
      const stoppedAt = performance.now()
      const answers = new Map<string, number>()
      const wrong: string[] = []
      while (performance.now() - stoppedAt < stopSeconds * 1000) {
        for (const replica of replicas) {
          const answer = await replica.api('GET', '/projects/', token).catch((error: Error) => error)
          const key = answer instanceof Error ? 'no answer' : String(answer.status)
          answers.set(key, (answers.get(key) ?? 0) + 1)
          const error = answer instanceof Error ? undefined : errorOf(answer)
          if (
            answer instanceof Error ||
            answer.status !== 503 ||
            answer.headers['retry-after'] === undefined ||
            !/database is unreachable/i.test(error ?? '')
          )
            wrong.push(`${replica.name}: ${describe(answer)}`)
        }
        await wait(200)
      }
      await postgres.start()
      const restartedAt = performance.now()
      cases.check(
        wrong.length === 0,
        () =>
          `API while PostgreSQL was stopped: ${wrong.length} answers not 503 + Retry-After "database is unreachable", first ${wrong[0]}`,
      )
      figures[`API while PostgreSQL stopped ${stopSeconds} s`] = [...answers]
        .map(([status, count]) => `${count}× ${status}`)
        .join(', ')
      for (const replica of replicas) {
        const seconds = await recovery(replica, token, 60_000)
        cases.check(
          seconds !== undefined,
          () => `${replica.name} did not recover within 60 s of PostgreSQL's start`,
        )
        figures[`${replica.name} back after PostgreSQL start`] =
          seconds === undefined ? 'never' : `${((performance.now() - restartedAt) / 1000).toFixed(1)} s`
      }
      const reads2 = await load2.stop()
      cases.check(
        reads2.failed.length === 0,
        () =>
          `reads of the resolved site while PostgreSQL was stopped: ${reads2.failed.length} of ${reads2.ok + reads2.failed.length} failed, first ${reads2.failed[0]}`,
      )
      figures['reads while PostgreSQL stopped'] = `${reads2.ok} ok, ${reads2.failed.length} failed`
      for (const replica of replicas)
        cases.check(alive(replica), () => `replica ${replica.name} exited while PostgreSQL was stopped`)
      const second = await push(a, token, slug, versionSite(2, 5)).catch((error: Error) => error)
      cases.check(
        !(second instanceof Error) && second.finalized.status === 200,
        () =>
          `the push after PostgreSQL came back: ${second instanceof Error ? second.message : describe(second.finalized)}`,
      )
      say(
        `outages: PostgreSQL stopped ${stopSeconds} s: ${reads2.ok} reads ok, ${reads2.failed.length} failed`,
      )

      // 3. Redis stopped: rate limits fall back, nothing else fails.
      await redis.stop()
      const load3 = readLoad(replicas, slug, paths)
      const redisWrong: string[] = []
      for (let turn = 0; turn < 20; turn++)
        for (const replica of replicas) {
          const answer = await replica.api('GET', '/projects/', token).catch((error: Error) => error)
          if (answer instanceof Error || answer.status !== 200)
            redisWrong.push(`${replica.name}: ${describe(answer)}`)
        }
      const third = await push(b, token, slug, versionSite(3, 5)).catch((error: Error) => error)
      cases.check(
        !(third instanceof Error) && third.finalized.status === 200,
        () =>
          `a push with Redis stopped: ${third instanceof Error ? third.message : describe(third.finalized)}`,
      )
      const reads3 = await load3.stop()
      cases.check(
        redisWrong.length === 0,
        () => `API with Redis stopped: ${redisWrong.length} of 40 failed, first ${redisWrong[0]}`,
      )
      cases.check(
        reads3.failed.length === 0,
        () => `reads with Redis stopped: ${reads3.failed.length} failed, first ${reads3.failed[0]}`,
      )
      for (const replica of replicas)
        cases.check(alive(replica), () => `replica ${replica.name} exited when Redis stopped`)
      figures['Redis stopped'] =
        `${40 - redisWrong.length}/40 API ok, ${reads3.ok} reads ok, push ${third instanceof Error ? 'failed' : third.finalized.status}`
    } catch (error) {
      cases.fail(`set-up: ${(error as Error).stack ?? String(error)}`)
    } finally {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
    }
    return cases.report(figures)
  },
}
