/**
 * The words of a Git connection: a repository's clone URL (checked and normalised, so a webhook's
 * repository can be matched to it), branch names, branch patterns and the DNS label of a branch.
 */
import { isSafeRelativePath } from '../../compiler/files.js'
import type { Issue } from '../errors.js'

/** Why `url` cannot be a connection's repository, or undefined when it can. */
export function repositoryUrlProblem(url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'not a URL; give the https:// clone URL, e.g. https://github.com/acme/docs.git'
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return `must be an http(s):// clone URL, not ${parsed.protocol.replace(/:$/, '')}`
  if (parsed.username || parsed.password)
    return 'must not hold credentials: the server fetches with a token it asks for at each build'
  if (parsed.search || parsed.hash) return 'must have no query or fragment'
  if (parsed.pathname.replace(/\/+$/, '').split('/').filter(Boolean).length === 0)
    return 'must name a repository (a path after the host)'
  return undefined
}

/** One spelling per repository: lower-case host, no trailing `/` or `.git`. */
export function normaliseRepositoryUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return url
  }
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\.git$/, '')
  return `${parsed.protocol}//${parsed.host.toLowerCase()}${path}`
}

/** `owner/name` of a GitHub repository URL (any host, for GitHub Enterprise). */
export function repositoryFullName(url: string): string {
  return new URL(normaliseRepositoryUrl(url)).pathname.slice(1)
}

/** Git's own rules for a branch name, enough to refuse what `git check-ref-format` would. */
export function branchProblem(branch: string): string | undefined {
  if (branch === '' || branch.length > 255) return 'must be 1 to 255 characters'
  if (
    /[\s~^:?*[\\]/.test(branch) ||
    [...branch].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f) ||
    branch.includes('..') ||
    branch.includes('@{') ||
    branch.startsWith('/') ||
    branch.endsWith('/') ||
    branch.endsWith('.') ||
    branch.endsWith('.lock') ||
    branch.startsWith('-') ||
    branch.includes('//')
  )
    return 'is not a valid Git branch name'
  return undefined
}

/** A preview pattern: a branch name where `*` stands for any characters but `/` and `**` for any. */
export function patternProblem(pattern: string): string | undefined {
  return branchProblem(pattern.replaceAll('*', 'x'))
}

export function matchesBranchPattern(pattern: string, branch: string): boolean {
  const source = pattern
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*')
  return new RegExp(`^${source}$`).test(branch)
}

/**
 * The DNS label of a branch in `<label>--<slug>.<base_domain>`: lower-case letters, digits and single
 * dashes (so `--` still splits it from the slug), at most 40 characters, never empty.
 */
export function branchSlug(branch: string): string {
  const slug = branch
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '')
  return slug === '' ? 'branch' : slug
}

/** What is wrong with a docs directory inside the repository (empty list when fine). */
export function docsDirectoryIssues(directory: string): Issue[] {
  if (directory === '.' || directory === '') return []
  if (
    directory.includes('\\') ||
    directory.startsWith('/') ||
    !isSafeRelativePath(directory.replace(/\/+$/, ''))
  )
    return [
      {
        path: 'body/docsDirectory',
        message: 'must be a relative folder inside the repository, without ".."',
      },
    ]
  return []
}

/** The all-zero SHA a push of a deleted branch names as its new commit. */
export const isZeroSha = (sha: string): boolean => /^0+$/.test(sha)

/**
 * The queue's key and the preview host label of pull/merge request `number`: `pr-7--<slug>.<base>`.
 * Its events supersede each other (the newest head, or its closing, wins), never a branch's pushes.
 */
export const pullRequestKey = (number: number): string => `pr-${number}`

/** The ref a forge keeps at a request's head commit, the fork's commits included. */
export const pullRequestRef = (provider: 'github' | 'gitlab' | 'gitea', number: number): string =>
  provider === 'gitlab' ? `refs/merge-requests/${number}/head` : `refs/pull/${number}/head`
