/**
 * Which Git hosts a connection may name and which of them get the server's credentials. A provider's
 * token (the GitHub App's installation tokens, the GitLab or Gitea bot's token) reads every repository
 * the bot can, so it goes only to that provider's own origin (scheme, host and port), the one its
 * configured API address names. Other hosts are refused unless `--git-allow-hosts` lists them, and are
 * then read without credentials.
 */
import type { GitProvider } from '../db/repositories/git.js'
import type { GitConfig } from './settings.js'

const providerNames: Record<GitProvider, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  gitea: 'Gitea/Forgejo',
}

/**
 * The origin a provider's repositories are cloned from: its API address's origin (GitLab
 * `https://HOST/api/v4`, Gitea `https://HOST/api/v1`, GitHub Enterprise `https://HOST/api/v3`), with
 * `api.` dropped from an API served at a host's root (`https://api.github.com` → `https://github.com`).
 */
export function providerOrigin(provider: GitProvider, git: GitConfig): string | undefined {
  const apiUrl = provider === 'github' ? git.github.apiUrl : git[provider].apiUrl
  if (apiUrl === undefined) return undefined
  const api = new URL(apiUrl)
  if (provider === 'github' && api.pathname.replace(/\/+$/, '') === '' && api.hostname.startsWith('api.'))
    api.hostname = api.hostname.slice('api.'.length)
  return api.origin
}

const defaultPorts: Record<string, string> = { 'http:': '80', 'https:': '443' }

/** Whether `--git-allow-hosts` lets a repository at `url` be fetched (without credentials). */
function isAllowedHost(url: URL, allowHosts: readonly string[]): boolean {
  const hostname = url.hostname.toLowerCase()
  const port = url.port || defaultPorts[url.protocol] || ''
  return allowHosts.some((entry) => entry === '*' || entry === hostname || entry === `${hostname}:${port}`)
}

export type HostAccess =
  /** On the provider's own origin: its credentials may be sent and statuses reported. */
  | { ok: true; providerHost: true }
  /** On a host the server allows: fetched without credentials, no statuses reported. */
  | { ok: true; providerHost: false }
  | { ok: false; problem: string }

/** How the server may reach the repository at `repositoryUrl` (an http(s) URL already checked). */
export function hostAccess(repositoryUrl: string, provider: GitProvider, git: GitConfig): HostAccess {
  const url = new URL(repositoryUrl)
  const origin = providerOrigin(provider, git)
  if (origin !== undefined && url.origin === origin) return { ok: true, providerHost: true }
  if (isAllowedHost(url, git.allowHosts)) return { ok: true, providerHost: false }
  const name = providerNames[provider]
  const where =
    origin === undefined
      ? `this server has no ${name} server set up (--gitea-api-url)`
      : `must be on ${origin}, the ${name} server this server is set up for`
  return {
    ok: false,
    problem: `${where}; a server administrator can allow other hosts with --git-allow-hosts`,
  }
}
