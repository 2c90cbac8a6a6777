/**
 * Real processes for end-to-end tests and the push benchmark: a `docs-server` on a random port with
 * its own data folder, the `docsctl` binary, and a browser-like walk through the sign-in page.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import getPort from 'get-port'
import { fromPackageRoot } from '../../../compiler/assets.js'

/** docs-server and docsctl as the package's bins run them: bundled (scripts/bundle.ts). */
export const serverBin = fromPackageRoot('dist', 'bundle', 'server', 'main.js')
export const cliBin = fromPackageRoot('dist', 'bundle', 'cli', 'main.js')

/** A port free on loopback right now. */
export const freePort = (): Promise<number> => getPort({ host: '127.0.0.1' })

export interface DocsServer {
  port: number
  apiUrl: string
  baseDomain: string
  dataDir: string
  args: string[]
  output: () => string
  /** The server process, for tests of how it stops. */
  process: ChildProcess
  /** Its exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** A session token from the operator command, for set-up steps the CLI does not do. */
  tokenFor(email: string): Promise<string>
  /** Fetch a site page by Host header, the way a browser reaches `<slug>.<base_domain>`. */
  fetchSite(slug: string, path: string): Promise<Response>
  stop(): Promise<void>
}

/**
 * Starts `bin` (the built `docs-server` unless a test runs an installed copy) and waits for /health.
 * `dataDir` restarts a server on the folder of an earlier one (the caller removes it).
 */
export async function startDocsServer(
  extraArgs: string[] = [],
  bin = serverBin,
  options: { dataDir?: string } = {},
): Promise<DocsServer> {
  const port = await freePort()
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'docs-server-e2e-')))
  const baseDomain = `localhost:${port}`
  const args = [
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    '--data-dir',
    dataDir,
    '--base-domain',
    baseDomain,
    '--api-host',
    baseDomain,
    '--log-level',
    'warn',
    ...extraArgs,
  ]
  const child: ChildProcess = spawn(process.execPath, [bin, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: cleanEnv(),
  })
  let log = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  const apiUrl = `http://127.0.0.1:${port}`
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`docs-server exited at start:\n${log}`)
    try {
      if ((await fetch(`${apiUrl}/health`)).ok) break
    } catch {
      // Not listening yet.
    }
    // A minute: a loaded CI machine can take many seconds to start a process, and a test that
    // waited less would fail for the load, not for the server.
    if (attempt > 1200) throw new Error(`docs-server did not answer /health:\n${log}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    port,
    apiUrl,
    baseDomain,
    dataDir,
    args,
    output: () => log,
    process: child,
    exited,
    async tokenFor(email) {
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [bin, 'token', 'create', '--email', email, ...args],
          { env: cleanEnv() },
          (error, out, err) => (error ? reject(new Error(`token create failed: ${err}`)) : resolve(out)),
        ),
      )
      const lines = stdout.trim().split('\n')
      return lines[lines.length - 1]!.trim()
    },
    fetchSite: (slug, path) => fetchWithHost(`${apiUrl}${path}`, `${slug}.${baseDomain}`),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await exited
      }
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** fetch() cannot set Host; a raw request can. */
async function fetchWithHost(url: string, host: string): Promise<Response> {
  const { request } = await import('node:http')
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const headers = new Headers()
        for (const [name, value] of Object.entries(res.headers))
          if (typeof value === 'string') headers.set(name, value)
        const status = res.statusCode ?? 500
        const body = status === 204 || status === 304 ? null : Buffer.concat(chunks)
        resolve(new Response(body, { status, headers }))
      })
    })
    req.on('error', reject)
    req.end()
  })
}

/** The environment without anything that would make the CLI think it runs in CI or elsewhere. */
/** The check cache of every docsctl a test process runs (one folder per test process, in the temp folder). */
const testCacheDir = join(tmpdir(), `docsctl-test-cache-${process.pid}`)

export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    // push keeps its check cache here, not in the user's ~/.cache.
    DOCSCTL_CACHE_DIR: testCacheDir,
  }
  return { ...env, ...extra }
}

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

export function runCli(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliBin, ...args], {
      env: options.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }))
  })
}

/** Start `docsctl login --no-open`, wait for the URL it prints, and hand both back. */
export async function startLogin(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ authorizeUrl: string; done: Promise<CliRun> }> {
  const child = spawn(process.execPath, [cliBin, 'login', '--no-open', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  const done = new Promise<CliRun>((resolve) =>
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr })),
  )
  const authorizeUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const match =
        /^(https?:\/\/\S+\/oauth\/authorize\S*)$/m.exec(stdout) ??
        /^(https?:\/\/\S*authorize\S*)$/m.exec(stdout)
      if (match) resolve(match[1]!)
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on('close', () => reject(new Error(`login exited before printing a URL:\n${stdout}\n${stderr}`)))
  })
  return { authorizeUrl, done }
}

/**
 * What a person does in the browser: open the authorize URL, fill the email into the local
 * provider's form, submit, and follow the redirects back to the CLI's loopback callback.
 */
export async function signInThroughBrowser(authorizeUrl: string, email: string): Promise<string> {
  const cookies = new Map<string, string>()
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const index = pair!.indexOf('=')
      cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1).trim())
    }
  }
  const follow = async (
    url: string,
    init: RequestInit = {},
  ): Promise<{ url: string; response: Response }> => {
    let current = url
    let options = init
    for (let hop = 0; hop < 10; hop++) {
      const response = await fetch(current, {
        ...options,
        redirect: 'manual',
        headers: { ...(options.headers as Record<string, string>), cookie: cookieHeader() },
      })
      remember(response)
      const location = response.headers.get('location')
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel()
        current = new URL(location, current).toString()
        options = {}
        continue
      }
      return { url: current, response }
    }
    throw new Error('too many redirects')
  }
  const page = await follow(authorizeUrl)
  const html = await page.response.text()
  const form = /<form[^>]*method="post"[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html)
  if (!form) throw new Error(`no sign-in form at ${page.url} (${page.response.status}):\n${html}`)
  const fields = new URLSearchParams()
  for (const input of form[2]!.matchAll(/<input([^>]*)>/gi)) {
    const attributes = input[1]!
    const name = /name="([^"]*)"/.exec(attributes)?.[1]
    if (!name) continue
    const type = /type="([^"]*)"/.exec(attributes)?.[1] ?? 'text'
    const value = /value="([^"]*)"/.exec(attributes)?.[1] ?? ''
    fields.set(name, type === 'email' ? email : value.replace(/&amp;/g, '&').replace(/&quot;/g, '"'))
  }
  const action = new URL(form[1]!.replace(/&amp;/g, '&'), page.url).toString()
  const done = await follow(action, {
    method: 'POST',
    body: fields.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  return done.response.text()
}
