/**
 * Debian's `caddy` running the shipped deploy/Caddyfile as is, on free loopback ports: every name and
 * address comes from the environment the file reads, certificates from Caddy's internal CA (no network),
 * whose root lands in this run's own data folder. HTTPS requests name the server (SNI) and the Host the
 * way a browser reaching that name through DNS would.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, type PeerCertificate, type TLSSocket } from 'node:tls'
import { fromPackageRoot } from '../../compiler/assets.js'
import { freePort } from '../cli/helpers/docs-server.js'

export const shippedCaddyfile = fromPackageRoot('deploy', 'Caddyfile')

/** A test option: skipped, saying why, where Caddy is not installed. */
export const noCaddy: string | false =
  spawnSync('caddy', ['version']).error === undefined
    ? false
    : 'needs caddy on PATH (Debian: apt-get install caddy; .ci/run installs it)'

export interface CaddySettings {
  apiHost: string
  baseDomain: string
  /** The docs-server replicas, `127.0.0.1:<port>` each. */
  upstreams: string[]
}

export interface CaddyServer {
  httpPort: number
  httpsPort: number
  /** The internal CA's root certificate (PEM), which every certificate Caddy serves chains to. */
  rootCertificate: Buffer
  output: () => string
  stop(): Promise<void>
}

export async function startCaddy(settings: CaddySettings): Promise<CaddyServer> {
  const home = await mkdtemp(join(tmpdir(), 'docs-caddy-'))
  const [httpPort, httpsPort, askPort] = [await freePort(), await freePort(), await freePort()]
  const child: ChildProcess = spawn(
    'caddy',
    ['run', '--config', shippedCaddyfile, '--adapter', 'caddyfile'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        XDG_DATA_HOME: join(home, 'data'),
        XDG_CONFIG_HOME: join(home, 'config'),
        DOCS_API_HOST: settings.apiHost,
        DOCS_BASE_DOMAIN: settings.baseDomain,
        DOCS_UPSTREAMS: settings.upstreams.join(' '),
        CADDY_CERT_ISSUER: 'internal',
        CADDY_HTTP_PORT: String(httpPort),
        CADDY_HTTPS_PORT: String(httpsPort),
        CADDY_ASK_PORT: String(askPort),
        // Several Caddy processes (tests in parallel) must not share the admin endpoint's port.
        CADDY_ADMIN: 'off',
      },
    },
  )
  let log = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const rootPath = join(home, 'data', 'caddy', 'pki', 'authorities', 'local', 'root.crt')
  let rootCertificate: Buffer | undefined
  /** What the last try of the health check got, for the error when none succeeds. */
  let lastTry = 'no root certificate yet'
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM')
      await exited
    }
    await rm(home, { recursive: true, force: true })
  }
  // Up once the API host's certificate is issued and docs-server answers through it.
  try {
    for (let attempt = 0; ; attempt++) {
      if (child.exitCode !== null) throw new Error(`caddy exited at start:\n${log}`)
      // Read again on every try until a request verifies with it: a read while Caddy is still writing the
      // file gets part of it, which, kept, fails every later try. (Once, in a clean-clone CI run, every
      // try failed for a minute while Caddy's log said it served; this is the one cause found.)
      const certificate = await readFile(rootPath).catch(() => undefined)
      if (certificate) {
        const health = await httpsGet(httpsPort, settings.apiHost, '/health', certificate).catch(
          (error: Error) => error,
        )
        if (!(health instanceof Error) && health.status === 200) {
          rootCertificate = certificate
          break
        }
        lastTry = health instanceof Error ? health.message : `status ${health.status}: ${health.body}`
      }
      if (attempt > 1200)
        throw new Error(
          `caddy did not serve https://${settings.apiHost}/health (last try: ${lastTry}):\n${log}`,
        )
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  } catch (error) {
    await stop()
    throw error
  }
  return {
    httpPort,
    httpsPort,
    rootCertificate,
    output: () => log,
    stop,
  }
}

export interface HttpsAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
  /** The certificate the server presented for the name. */
  certificate: PeerCertificate
}

/**
 * GET https://<name><path> through Caddy on loopback, trusting only `ca`: SNI and Host are `name`.
 * `localAddress` picks the client's address (127.0.0.2, …), as different readers would have.
 */
export function httpsGet(
  port: number,
  name: string,
  path: string,
  ca: Buffer,
  options: { localAddress?: string; headers?: Record<string, string> } = {},
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path,
        servername: name,
        ca,
        agent: false,
        headers: { host: name, ...options.headers },
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (response) => {
        // Read now: once the answer ends, the socket is closed and has no certificate to show.
        const certificate = (response.socket as TLSSocket).getPeerCertificate()
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            certificate,
          }),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

/** A TLS handshake for `name` (SNI) alone: the certificate Caddy presents, or why there was none. */
export function handshake(
  port: number,
  name: string,
  ca: Buffer,
): Promise<{ certificate: PeerCertificate } | { error: Error }> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, servername: name, ca })
    socket.once('secureConnect', () => {
      const certificate = socket.getPeerCertificate()
      socket.end()
      resolve({ certificate })
    })
    socket.once('error', (error) => resolve({ error }))
  })
}
