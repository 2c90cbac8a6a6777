/**
 * A real Git server on loopback for tests: `git http-backend` (smart HTTP, protocol v2) behind a small
 * Node HTTP server, over bare repositories in a temp folder. A repository may require a token, sent as
 * Basic credentials (GitHub: `x-access-token:<token>`, GitLab: `oauth2:<token>`). Commits are made in a
 * work tree with the system `git` and pushed straight into the bare repository. A path prefix may be
 * passed on to another loopback server (a stand-in API on the Git server's own origin, as on a real
 * forge) or answered with a redirect.
 */
import { execFile, spawn } from 'node:child_process'
import { mkdir, mkdtemp, open, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { TestContext } from 'node:test'
import { promisify } from 'node:util'

const run = promisify(execFile)

const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada Lovelace',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada Lovelace',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
}

export const git = async (cwd: string, ...args: string[]): Promise<string> =>
  (await run('git', args, { cwd, env: gitEnv })).stdout.trim()

export interface LoggedRequest {
  method: string
  url: string
  authorization: string | undefined
}

/** A file's text, a symlink to `symlink`, `zeroBytes` zero bytes (sparse on disk), or null: deleted. */
export type TestFile = string | { symlink: string } | { zeroBytes: number } | null

export interface TestRepository {
  /** `http://127.0.0.1:PORT/<name>.git` */
  url: string
  /** The work tree commits are made in. */
  workTree: string
  /** Write files (path → content; null deletes), commit them on `branch`, push; answers the new SHA. */
  commit(
    branch: string,
    files: Record<string, TestFile>,
    message: string,
    options?: { force?: boolean; parent?: string },
  ): Promise<string>
  deleteBranch(branch: string): Promise<void>
}

export class GitServer {
  readonly requests: LoggedRequest[] = []
  /** Repository name → which Basic credentials open it (a repository without one is public). */
  readonly #acceptsToken = new Map<string, (token: string, username: string) => boolean>()
  /** Path prefix → where requests under it go: passed on (`proxy`) or redirected (`redirect`). */
  readonly #routes: { prefix: string; target: string; kind: 'proxy' | 'redirect' }[] = []
  #origin = ''

  private constructor(private readonly root: string) {}

  static async start(t: Pick<TestContext, 'after'>): Promise<GitServer> {
    const root = await mkdtemp(join(tmpdir(), 'docs-git-server-'))
    const server = new GitServer(root)
    const http = createServer((request, response) => {
      server.#handle(request).then(
        ({ status, headers, body }) => {
          response.writeHead(status, headers)
          response.end(body)
        },
        (error: unknown) => {
          response.writeHead(500)
          response.end(String(error))
        },
      )
    })
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
    server.#origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
    t.after(async () => {
      http.closeAllConnections()
      await new Promise((resolve) => http.close(resolve))
      await rm(root, { recursive: true, force: true })
    })
    return server
  }

  /** `http://127.0.0.1:PORT` */
  get origin(): string {
    return this.#origin
  }

  /** Requests under `prefix` are passed on to `target` + the rest of their path. */
  proxy(prefix: string, target: string): void {
    this.#routes.push({ prefix, target, kind: 'proxy' })
  }

  /** Requests under `prefix` are answered 302 to `target` + the rest of their path. */
  redirect(prefix: string, target: string): void {
    this.#routes.push({ prefix, target, kind: 'redirect' })
  }

  /** A new bare repository served at `/<name>.git`, and a work tree to commit in. */
  async createRepository(
    name: string,
    options: { acceptsToken?: (token: string, username: string) => boolean } = {},
  ): Promise<TestRepository> {
    const bare = join(this.root, `${name}.git`)
    await git(this.root, 'init', '--quiet', '--bare', bare)
    await git(bare, 'config', 'uploadpack.allowAnySHA1InWant', 'true')
    if (options.acceptsToken) this.#acceptsToken.set(name, options.acceptsToken)
    const workTree = join(this.root, `${name}-work`)
    await git(this.root, 'init', '--quiet', workTree)
    await git(workTree, 'remote', 'add', 'origin', bare)
    return {
      url: `${this.#origin}/${name}.git`,
      workTree,
      async commit(branch, files, message, commitOptions = {}) {
        const branches = await git(workTree, 'branch', '--list', branch)
        if (commitOptions.parent)
          await git(workTree, 'checkout', '--quiet', '-B', branch, commitOptions.parent)
        else if (branches === '') {
          const any = await git(workTree, 'branch', '--list')
          await git(workTree, 'checkout', '--quiet', any === '' ? '--orphan' : '-b', branch)
        } else await git(workTree, 'checkout', '--quiet', branch)
        for (const [path, content] of Object.entries(files)) {
          const full = join(workTree, path)
          await rm(full, { force: true })
          if (content === null) continue
          await mkdir(dirname(full), { recursive: true })
          if (typeof content === 'string') await writeFile(full, content)
          else if ('symlink' in content) await symlink(content.symlink, full)
          else {
            const file = await open(full, 'w')
            await file.truncate(content.zeroBytes)
            await file.close()
          }
        }
        await git(workTree, 'add', '--all')
        await git(workTree, 'commit', '--quiet', '--allow-empty', '-m', message)
        await git(workTree, 'push', '--quiet', ...(commitOptions.force ? ['--force'] : []), 'origin', branch)
        return git(workTree, 'rev-parse', 'HEAD')
      },
      async deleteBranch(branch) {
        await git(workTree, 'push', '--quiet', 'origin', '--delete', branch)
      },
    }
  }

  async #handle(request: IncomingMessage) {
    const url = new URL(request.url ?? '/', this.#origin)
    this.requests.push({
      method: request.method ?? 'GET',
      url: request.url ?? '',
      authorization: request.headers.authorization,
    })
    const route = this.#routes.find(({ prefix }) => url.pathname.startsWith(prefix))
    if (route) {
      const target = `${route.target}${url.pathname.slice(route.prefix.length)}${url.search}`
      if (route.kind === 'redirect')
        return { status: 302, headers: { location: target }, body: Buffer.alloc(0) }
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          (entry): entry is [string, string] =>
            typeof entry[1] === 'string' && !['host', 'connection', 'content-length'].includes(entry[0]),
        ),
      )
      const method = request.method ?? 'GET'
      const answer = await fetch(target, {
        method,
        headers,
        ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
      })
      return {
        status: answer.status,
        headers: { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' },
        body: Buffer.from(await answer.arrayBuffer()),
      }
    }
    // `/<name>.git/…` or `/<name>/…`: git http-backend serves both.
    const acceptsToken = [...this.#acceptsToken].find(
      ([name]) => url.pathname.startsWith(`/${name}.git/`) || url.pathname.startsWith(`/${name}/`),
    )?.[1]
    if (acceptsToken) {
      const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? ''
      const [username = '', token = ''] = Buffer.from(basic, 'base64').toString().split(':')
      if (!acceptsToken(token, username)) {
        return {
          status: 401,
          headers: { 'www-authenticate': 'Basic realm="test"', 'content-type': 'text/plain' },
          body: Buffer.from('Authentication required'),
        }
      }
    }
    const body = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => resolve(Buffer.concat(chunks)))
      request.on('error', reject)
    })
    const backend = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_PROJECT_ROOT: this.root,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: request.method ?? 'GET',
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        CONTENT_LENGTH: String(body.length),
        HTTP_CONTENT_ENCODING: String(request.headers['content-encoding'] ?? ''),
        REMOTE_ADDR: '127.0.0.1',
      },
    })
    // http-backend may answer a GET without reading its (empty) input: a closed pipe is no error.
    backend.stdin.on('error', () => {})
    backend.stdin.end(body)
    const output = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = []
      backend.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
      backend.on('error', reject)
      backend.on('close', () => resolve(Buffer.concat(chunks)))
    })
    const split = output.indexOf('\r\n\r\n')
    const head = output.subarray(0, split).toString('utf8')
    const headers: Record<string, string> = {}
    let status = 200
    for (const line of head.split('\r\n')) {
      const colon = line.indexOf(':')
      const key = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      if (key === 'status') status = Number(value.split(' ')[0])
      else if (key) headers[key] = value
    }
    return { status, headers, body: output.subarray(split + 4) }
  }
}
