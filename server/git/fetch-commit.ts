/**
 * Reach a repository with the system `git`: ask for a branch's head (`git ls-remote`) and fetch exactly
 * one commit (a shallow fetch of its SHA into a fresh folder; nothing is checked out, commit-files.ts
 * reads the objects). The host is resolved first and every address checked (no loopback, private or
 * link-local one unless the server allows it), then pinned for curl, so a DNS answer cannot change
 * between the check and the fetch; redirects are never followed. A token travels as an
 * `http.<origin>/.extraHeader` in git's environment (GIT_CONFIG_COUNT…), scoped to the repository's
 * origin and never in argv, a URL, a log or an error message. Only http(s) is allowed, no user or
 * system git config is read, and git never prompts.
 *
 * Every failure is a FetchError whose message is for the server's log; what a project's owner is told
 * is one sentence whatever failed (`fetchFailedDetail`), so a repository URL cannot be used to learn
 * which internal ports are open.
 */
import { spawn } from 'node:child_process'
import { lookup } from 'node:dns/promises'
import { mkdir, readdir, stat } from 'node:fs/promises'
import { isIP } from 'node:net'
import { join } from 'node:path'
import { isPublicAddress } from './addresses.js'

export const isCommitSha = (sha: string): boolean => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha)

/** Why git could not reach or fetch from a repository; the message is for the log only. */
export class FetchError extends Error {}

/** What a delivery says of any fetch failure; the reason is in the server's log. */
export const fetchFailedDetail =
  'Could not fetch the commit from the repository: it is unreachable, refused the server, is larger than ' +
  '--git-max-fetch-bytes or took longer than --git-fetch-timeout (the server log has the reason)'

export interface RemoteOptions {
  repositoryUrl: string
  /** Basic credentials (the token as password), or undefined for a public repository. */
  credentials: { username: string; token: string } | undefined
  allowPrivateAddresses: boolean
  timeoutMs: number
  /** Largest pack a fetch may download. */
  maxFetchBytes: number
  /** Host name → addresses; the system resolver unless a test gives another. */
  resolve?: (hostname: string) => Promise<string[]>
}

const systemResolve = async (hostname: string): Promise<string[]> =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address)

/** Error text of git with any trace of the credentials removed. */
const scrub = (text: string, secrets: readonly string[]): string => {
  let clean = text.trim()
  for (const secret of secrets) clean = clean.replaceAll(secret, '[token]')
  return clean.split('\n').slice(-5).join('\n')
}

/** Total bytes of the files under `dir` (0 when it does not exist). */
async function folderBytes(dir: string): Promise<number> {
  let total = 0
  let entries: import('node:fs').Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) total += await folderBytes(path)
    else
      total += await stat(path).then(
        (info) => info.size,
        () => 0,
      )
  }
  return total
}

/** A repository the server may reach, with git's environment for it. */
export class Remote {
  private constructor(
    private readonly options: RemoteOptions,
    private readonly env: NodeJS.ProcessEnv,
    private readonly secrets: readonly string[],
  ) {}

  /** Resolves the repository's host and checks its addresses; throws FetchError when it may not be reached. */
  static async open(options: RemoteOptions): Promise<Remote> {
    const url = new URL(options.repositoryUrl)
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new FetchError(`${url.protocol} is not http(s)`)
    const hostname = url.hostname.replace(/^\[|\]$/g, '')
    const port = url.port || (url.protocol === 'https:' ? '443' : '80')
    let addresses: string[]
    try {
      addresses = isIP(hostname) ? [hostname] : await (options.resolve ?? systemResolve)(hostname)
    } catch (error) {
      throw new FetchError(`${hostname} does not resolve: ${(error as Error).message}`)
    }
    if (addresses.length === 0) throw new FetchError(`${hostname} has no address`)
    const refused = addresses.filter((address) => !isPublicAddress(address))
    if (refused.length > 0 && !options.allowPrivateAddresses)
      throw new FetchError(
        `${hostname} resolves to ${refused.join(', ')}, not a public address (--git-allow-private-addresses)`,
      )
    const config: [string, string][] = [
      ['http.followRedirects', 'false'],
      ['transfer.unpackLimit', '1'],
    ]
    // The addresses just checked are the ones curl connects to.
    if (!isIP(hostname))
      config.push([
        'http.curloptResolve',
        `${hostname}:${port}:${addresses.map((address) => (isIP(address) === 6 ? `[${address}]` : address)).join(',')}`,
      ])
    const { credentials } = options
    const secrets: string[] = []
    if (credentials) {
      const basic = Buffer.from(`${credentials.username}:${credentials.token}`).toString('base64')
      config.push([`http.${url.origin}/.extraHeader`, `Authorization: Basic ${basic}`])
      secrets.push(credentials.token, basic)
    }
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_ASKPASS: 'true',
      GIT_ALLOW_PROTOCOL: 'http:https',
      GIT_PROTOCOL_FROM_USER: '0',
      GIT_CONFIG_COUNT: String(config.length),
    }
    config.forEach(([key, value], index) => {
      env[`GIT_CONFIG_KEY_${index}`] = key
      env[`GIT_CONFIG_VALUE_${index}`] = value
    })
    return new Remote(options, env, secrets)
  }

  /**
   * Run git in its own process group. A timeout or an abort kills the whole group: `git fetch` works
   * through children (remote-http, index-pack) that would otherwise go on writing into `cwd` after git
   * itself is gone, while the caller removes the folder.
   */
  async #git(
    args: string[],
    cwd: string,
    what: string,
    signal?: AbortSignal,
    maxBuffer = 1024 * 1024,
  ): Promise<string> {
    const { timeoutMs } = this.options
    return new Promise((resolve, reject) => {
      let stopped: string | undefined
      const child = spawn('git', args, { cwd, env: { ...this.env, HOME: cwd }, detached: true })
      const stop = (reason: string) => {
        if (stopped !== undefined || child.pid === undefined) return
        stopped = reason
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {
          // The group has already exited.
        }
      }
      const onAbort = () => stop(String(signal?.reason))
      const timer = setTimeout(() => stop(`it took longer than ${Math.round(timeoutMs / 1000)} s`), timeoutMs)
      if (signal?.aborted) onAbort()
      else signal?.addEventListener('abort', onAbort, { once: true })
      const stdout: Buffer[] = []
      const stderr: Buffer[] = []
      let bytes = 0
      child.stdout.on('data', (chunk: Buffer) => {
        bytes += chunk.length
        if (bytes > maxBuffer) stop(`its answer was larger than ${maxBuffer} bytes`)
        else stdout.push(chunk)
      })
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
      const finish = (failure: string | undefined) => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        if (failure === undefined && stopped === undefined) return resolve(Buffer.concat(stdout).toString())
        const reason = stopped ?? scrub(Buffer.concat(stderr).toString() || (failure ?? ''), this.secrets)
        reject(new FetchError(`git could not ${what}: ${reason}`))
      }
      child.on('error', (error) => finish(error.message))
      child.on('close', (code, killedBy) =>
        finish(code === 0 ? undefined : `git exited with ${killedBy ?? `code ${String(code)}`}`),
      )
    })
  }

  /**
   * The commit `refs/heads/<branch>` points at now, or undefined when the branch does not exist. A
   * repository without a single branch is no repository here (a web page answers like one): that is a
   * FetchError, so an owner learns nothing of what else answers at the URL.
   */
  async branchHead(branch: string, cwd: string): Promise<string | undefined> {
    const ref = `refs/heads/${branch}`
    await mkdir(cwd, { recursive: true })
    const list = async (patterns: string[]) => {
      const output = await this.#git(
        ['ls-remote', '--heads', '--', this.options.repositoryUrl, ...patterns],
        cwd,
        `list ${ref}`,
        undefined,
        patterns.length === 0 ? 8 * 1024 * 1024 : undefined,
      )
      const refs = new Map<string, string>()
      for (const line of output.split('\n')) {
        const [sha = '', name = ''] = line.split('\t')
        if (isCommitSha(sha)) refs.set(name, sha)
      }
      return refs
    }
    const head = (await list([ref])).get(ref)
    if (head !== undefined) return head
    if ((await list([])).size === 0) throw new FetchError('the repository lists no branch')
    return undefined
  }

  /**
   * The commit a pull/merge request's ref (`refs/pull/7/head`, `refs/merge-requests/7/head`) points at
   * now, or undefined when the forge lists no such ref (the request is gone).
   */
  async refHead(ref: string, cwd: string): Promise<string | undefined> {
    await mkdir(cwd, { recursive: true })
    const output = await this.#git(['ls-remote', '--', this.options.repositoryUrl, ref], cwd, `list ${ref}`)
    for (const line of output.split('\n')) {
      const [sha = '', name = ''] = line.split('\t')
      if (name === ref && isCommitSha(sha)) return sha
    }
    return undefined
  }

  /**
   * Fetch commit `sha` (depth 1) into a new repository at `dir`; nothing is checked out. A fetch whose
   * pack grows past the limit is stopped.
   */
  async fetchCommit(sha: string, dir: string): Promise<void> {
    if (!isCommitSha(sha)) throw new FetchError(`"${sha}" is not a commit SHA`)
    await mkdir(dir, { recursive: true })
    await this.#git(['init', '--quiet', '--bare', '.'], dir, 'create a folder for the commit')
    const { maxFetchBytes } = this.options
    const objects = join(dir, 'objects')
    const abort = new AbortController()
    const tooLarge = `the pack is larger than ${maxFetchBytes} bytes (--git-max-fetch-bytes)`
    // Checked while git writes the pack, and once more when it is done.
    const watch = setInterval(() => {
      void folderBytes(objects).then((bytes) => {
        if (bytes > maxFetchBytes) abort.abort(tooLarge)
      })
    }, 250)
    try {
      await this.#git(
        [
          'fetch',
          '--quiet',
          '--depth=1',
          '--no-tags',
          '--no-recurse-submodules',
          '--',
          this.options.repositoryUrl,
          sha,
        ],
        dir,
        `fetch commit ${sha}`,
        abort.signal,
      )
    } finally {
      clearInterval(watch)
    }
    if ((await folderBytes(objects)) > maxFetchBytes) throw new FetchError(tooLarge)
  }
}
