/**
 * A real `docs-server` process on SQLite that a suite may SIGKILL and start again on the same port and
 * data folder, as an operator's supervisor would. Every line it writes is kept (across restarts) for the
 * secrets scan. Sites answer on `<slug>.localhost:<port>`, the API on `localhost:<port>`.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { cleanEnv, freePort, serverBin } from '../cli/helpers/docs-server.js'
import { type HttpAnswer, http } from '../e2e/replicas.js'
import { evidence } from './evidence.js'

export class ServerProcess {
  #child: ChildProcess | undefined
  #exited: Promise<void> = Promise.resolve()
  #log = ''
  starts = 0

  private constructor(
    readonly name: string,
    readonly port: number,
    readonly dataDir: string,
    readonly extraArgs: readonly string[],
  ) {}

  /** `dataDir`: a folder to use (made if missing), e.g. on a disk the suite fills; else a new temporary one. */
  static async create(
    name: string,
    extraArgs: readonly string[] = [],
    dataDir?: string,
  ): Promise<ServerProcess> {
    if (dataDir) await mkdir(dataDir, { recursive: true })
    const folder = dataDir ?? (await mkdtemp(join(tmpdir(), `docs-reliability-${name}-`)))
    return new ServerProcess(name, await freePort(), folder, extraArgs)
  }

  get baseDomain(): string {
    return `localhost:${this.port}`
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}`
  }

  get args(): string[] {
    return [
      ...['--port', String(this.port), '--host', '127.0.0.1', '--data-dir', this.dataDir],
      ...['--base-domain', this.baseDomain, '--api-host', this.baseDomain],
      ...['--log-level', 'info', '--rate-limit', '1000000'],
      ...this.extraArgs,
    ]
  }

  /** Everything every start of the process wrote. */
  get log(): string {
    return this.#log
  }

  get running(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null
  }

  /** Start and wait until /ready answers 200. */
  async start(): Promise<void> {
    const child = spawn(process.execPath, [serverBin, ...this.args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: cleanEnv(),
    })
    this.starts++
    this.#child = child
    const keep = (chunk: Buffer) => {
      this.#log += chunk.toString()
    }
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()))
    for (let attempt = 0; ; attempt++) {
      if (!this.running) throw new Error(`${this.name} exited at start:\n${this.#log.slice(-4000)}`)
      const ready = await http(this.port, 'GET', '/ready', { host: this.baseDomain }).catch(() => undefined)
      if (ready?.status === 200) return
      if (attempt > 1200) throw new Error(`${this.name} never answered /ready:\n${this.#log.slice(-4000)}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  /** SIGKILL: no shutdown code runs, as when the machine loses power or the OOM killer strikes. */
  async kill(): Promise<void> {
    if (!this.running) return
    this.#child?.kill('SIGKILL')
    await this.#exited
  }

  /** SIGTERM and wait for the exit. */
  async stop(): Promise<void> {
    if (this.running) {
      this.#child?.kill('SIGTERM')
      await this.#exited
    }
  }

  /** Stop, keep its log as evidence, delete its data folder. */
  async dispose(): Promise<void> {
    await this.stop()
    evidence.output(`${this.name}: server log`, this.#log)
    await rm(this.dataDir, { recursive: true, force: true })
  }

  /** A session token made by the operator command on this server's database. */
  async token(email: string): Promise<string> {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [serverBin, 'token', 'create', '--email', email, ...this.args],
      { env: cleanEnv() },
    )
    const token = stdout.trim().split('\n').at(-1)?.trim() ?? ''
    evidence.secret('session token', token)
    return token
  }

  /** An API call; its answer is kept as evidence. */
  async api(method: string, path: string, token: string, json?: unknown): Promise<HttpAnswer> {
    const answer = await http(this.port, method, path, {
      host: this.baseDomain,
      headers: { authorization: `Bearer ${token}` },
      ...(json === undefined ? {} : { json }),
    })
    evidence.output(`${this.name}: ${method} ${path}`, answer.text())
    return answer
  }

  /** GET a path of `<slug>.<base domain>`. */
  site(slug: string, path: string): Promise<HttpAnswer> {
    return http(this.port, 'GET', path, { host: `${slug}.${this.baseDomain}` })
  }
}
