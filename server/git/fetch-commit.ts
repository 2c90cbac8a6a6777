/**
 * Fetch exactly one commit with the system `git`: a shallow fetch of its SHA into a fresh folder, then
 * a checkout. A repository token travels as an `http.extraHeader` in git's environment
 * (GIT_CONFIG_COUNT…), never in argv, a URL, a log or an error message. Only http(s) is allowed, no
 * user or system git config is read, and git never prompts.
 */
import { execFile } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { promisify } from 'node:util'

const run = promisify(execFile)

export const isCommitSha = (sha: string): boolean => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha)

export class FetchError extends Error {}

export interface FetchRequest {
  repositoryUrl: string
  sha: string
  /** Basic credentials (the token as password), or undefined for a public repository. */
  credentials: { username: string; token: string } | undefined
  /** An empty folder to fetch into; it holds the commit's files afterwards. */
  dir: string
  timeoutMs: number
}

/** Git's environment: nothing from the machine's or the user's git config, the token as a header. */
function gitEnvironment(dir: string, basic: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
    GIT_ALLOW_PROTOCOL: 'http:https',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_CONFIG_COUNT: '0',
  }
  if (basic) {
    Object.assign(env, {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
    })
  }
  return env
}

/** Error text of git with any trace of the credentials removed. */
const scrub = (text: string, secrets: readonly string[]): string => {
  let clean = text.trim()
  for (const secret of secrets) clean = clean.replaceAll(secret, '[token]')
  return clean.split('\n').slice(-5).join('\n')
}

export async function fetchCommit(request: FetchRequest): Promise<void> {
  if (!isCommitSha(request.sha)) throw new FetchError(`"${request.sha}" is not a commit SHA`)
  await mkdir(request.dir, { recursive: true })
  const { credentials } = request
  const basic = credentials
    ? Buffer.from(`${credentials.username}:${credentials.token}`).toString('base64')
    : undefined
  const secrets = credentials && basic ? [credentials.token, basic] : []
  const env = gitEnvironment(request.dir, basic)
  const git = async (args: string[], what: string) => {
    try {
      await run('git', args, { cwd: request.dir, env, timeout: request.timeoutMs, maxBuffer: 1024 * 1024 })
    } catch (error) {
      const failure = error as { stderr?: string; killed?: boolean; message: string }
      const reason = failure.killed
        ? `it took longer than ${Math.round(request.timeoutMs / 1000)} s`
        : scrub(failure.stderr || failure.message, secrets)
      throw new FetchError(`git could not ${what}: ${reason}`)
    }
  }
  await git(['init', '--quiet', '.'], 'create a folder for the commit')
  await git(
    [
      'fetch',
      '--quiet',
      '--depth=1',
      '--no-tags',
      '--no-recurse-submodules',
      request.repositoryUrl,
      request.sha,
    ],
    `fetch commit ${request.sha}`,
  )
  await git(
    ['-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--detach', 'FETCH_HEAD'],
    'check out the commit',
  )
}
