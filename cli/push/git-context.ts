/**
 * Branch and commit message of a push, when the author did not give them: in CI from the provider's
 * environment (env-ci knows GitHub Actions, GitLab CI, CircleCI, Bitbucket, Azure Pipelines, Buildkite,
 * Jenkins and more), locally from git.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type envCi from 'env-ci'

const run = promisify(execFile)

export interface GitContext {
  branch: string
  commitMessage: string | undefined
  isCi: boolean
  ciService: string | undefined
}

export async function detectGitContext(input: {
  cwd: string
  branch?: string | undefined
  message?: string | undefined
  env?: NodeJS.ProcessEnv
}): Promise<GitContext> {
  const env = input.env ?? process.env
  const ci = await safeEnvCi(env, input.cwd)
  // A pull request's own branch, not the one it merges into.
  const detected = (ci.isPr ? ci.prBranch : undefined) ?? ci.branch
  const branch = input.branch ?? env.DOCSCTL_BRANCH ?? cleanBranch(detected) ?? 'main'
  const commitMessage = input.message ?? env.DOCSCTL_COMMIT_MESSAGE ?? (await lastCommitMessage(input.cwd))
  return { branch, commitMessage, isCi: ci.isCi, ciService: ci.service }
}

/** env-ci (and the execa it brings) loads only when a push asks: every other command starts without it. */
async function safeEnvCi(env: NodeJS.ProcessEnv, cwd: string): Promise<ReturnType<typeof envCi>> {
  const { default: detect } = await import('env-ci')
  try {
    return detect({ env, cwd })
  } catch {
    // Not a git checkout, or git is not installed: nothing to detect.
    return { isCi: Boolean(env.CI) }
  }
}

/** `refs/heads/x` → `x`; a detached HEAD has no branch. */
function cleanBranch(branch: string | undefined): string | undefined {
  if (!branch) return undefined
  const name = branch.replace(/^refs\/heads\//, '').trim()
  return name === '' || name === 'HEAD' ? undefined : name
}

async function lastCommitMessage(cwd: string): Promise<string | undefined> {
  try {
    const { stdout } = await run('git', ['log', '-1', '--pretty=%B'], { cwd, timeout: 5000 })
    const message = stdout.trim()
    return message === '' ? undefined : message
  } catch {
    return undefined
  }
}
