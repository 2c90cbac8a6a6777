/**
 * Git-connected deploy settings: the GitHub App (id, private key, webhook secret, API address for
 * GitHub Enterprise), the key that webhook secrets of GitLab and Gitea/Forgejo projects are derived
 * from, the limits of a delivery and a fetch, and which hosts and addresses a fetch may reach. They
 * join the server's settings table (server/config.ts).
 */
import { readFileSync } from 'node:fs'
import { ConfigError } from '../config-error.js'

export interface GitConfig {
  github: {
    appId: string | undefined
    /** PEM text of the App's private key. */
    privateKey: string | undefined
    webhookSecret: string | undefined
    /** REST API base, `https://api.github.com` or `https://ghe.example.com/api/v3`. */
    apiUrl: string
  }
  /** A bot account's token on a GitLab or Gitea/Forgejo server: reads private repositories, reports statuses. */
  gitlab: { token: string | undefined; apiUrl: string }
  gitea: { token: string | undefined; apiUrl: string | undefined }
  /** Secret key webhook secrets are derived from; undefined: a key file in the data dir. */
  webhookKey: string | undefined
  /** Largest webhook body accepted; larger answers 413. */
  maxWebhookBytes: number
  /** Seconds one `git fetch` may take. */
  fetchTimeoutSeconds: number
  /** Largest pack one fetch may download, in bytes. */
  maxFetchBytes: number
  /** Most entries (files, links) the docs folder of a fetched commit may list, ignored ones included. */
  maxTreeEntries: number
  /**
   * Hosts (`host` or `host:port`, lower-case; `*` any) repositories may be on besides the configured
   * providers' own; fetched without credentials. Empty: only the providers' hosts.
   */
  allowHosts: string[]
  /** Whether a fetch may reach loopback, private and link-local addresses (a Git server on the LAN). */
  allowPrivateAddresses: boolean
}

export const gitSettings = {
  githubAppId: {
    flag: 'github-app-id',
    env: 'DOCS_GITHUB_APP_ID',
    description: 'GitHub App id (Git-connected deploys from GitHub)',
    default: undefined,
  },
  githubAppPrivateKey: {
    flag: 'github-app-private-key',
    env: 'DOCS_GITHUB_APP_PRIVATE_KEY',
    description: "the GitHub App's private key: PEM text or the path of a .pem file",
    default: undefined,
  },
  githubWebhookSecret: {
    flag: 'github-webhook-secret',
    env: 'DOCS_GITHUB_WEBHOOK_SECRET',
    description: "the GitHub App's webhook secret",
    default: undefined,
  },
  githubApiUrl: {
    flag: 'github-api-url',
    env: 'DOCS_GITHUB_API_URL',
    description: 'GitHub REST API address (GitHub Enterprise: https://HOST/api/v3)',
    default: 'https://api.github.com',
  },
  gitlabToken: {
    flag: 'gitlab-token',
    env: 'DOCS_GITLAB_TOKEN',
    description:
      'token of a GitLab bot account (read_repository, api): private repositories and commit statuses',
    default: undefined,
  },
  gitlabApiUrl: {
    flag: 'gitlab-api-url',
    env: 'DOCS_GITLAB_API_URL',
    description: 'GitLab REST API address (self-managed: https://HOST/api/v4)',
    default: 'https://gitlab.com/api/v4',
  },
  giteaToken: {
    flag: 'gitea-token',
    env: 'DOCS_GITEA_TOKEN',
    description: 'token of a Gitea/Forgejo bot account: private repositories and commit statuses',
    default: undefined,
  },
  giteaApiUrl: {
    flag: 'gitea-api-url',
    env: 'DOCS_GITEA_API_URL',
    description: 'Gitea/Forgejo API address, https://HOST/api/v1 (needed with --gitea-token)',
    default: undefined,
  },
  gitWebhookKey: {
    flag: 'git-webhook-key',
    env: 'DOCS_GIT_WEBHOOK_KEY',
    description:
      'secret (32+ characters) GitLab/Gitea webhook secrets derive from (default: a key file in the data dir)',
    default: undefined,
  },
  gitWebhookMaxBytes: {
    flag: 'git-webhook-max-bytes',
    env: 'DOCS_GIT_WEBHOOK_MAX_BYTES',
    description: 'largest webhook delivery accepted',
    default: String(4 * 1024 * 1024),
  },
  gitFetchTimeout: {
    flag: 'git-fetch-timeout',
    env: 'DOCS_GIT_FETCH_TIMEOUT',
    description: 'seconds one git fetch of a pushed commit may take',
    default: '120',
  },
  gitMaxFetchBytes: {
    flag: 'git-max-fetch-bytes',
    env: 'DOCS_GIT_MAX_FETCH_BYTES',
    description: 'largest pack one git fetch of a pushed commit may download',
    default: String(1024 ** 3),
  },
  gitMaxTreeEntries: {
    flag: 'git-max-tree-entries',
    env: 'DOCS_GIT_MAX_TREE_ENTRIES',
    description: 'most entries the docs folder of a pushed commit may list (ignored ones included)',
    default: '200000',
  },
  gitAllowHosts: {
    flag: 'git-allow-hosts',
    env: 'DOCS_GIT_ALLOW_HOSTS',
    description:
      "hosts (host or host:port, comma-separated; * for any) repositories may be on besides the providers' own; read without credentials",
    default: undefined,
  },
  gitAllowPrivateAddresses: {
    flag: 'git-allow-private-addresses',
    env: 'DOCS_GIT_ALLOW_PRIVATE_ADDRESSES',
    description: 'true to let git fetches reach loopback, private and link-local addresses',
    default: 'false',
  },
} as const

export type GitSettingName = keyof typeof gitSettings

const where = (name: GitSettingName): string => `--${gitSettings[name].flag} / ${gitSettings[name].env}`

/** Reads and checks the Git settings; `raw` gives a setting's flag, env or default value. */
export function readGitConfig(raw: (name: GitSettingName) => string | undefined): GitConfig {
  const integer = (name: GitSettingName, min: number, max: number): number => {
    const text = raw(name)?.trim() ?? ''
    const number = Number(text)
    if (!/^\d+$/.test(text) || number < min || number > max)
      throw new ConfigError(`${where(name)}: expected a whole number from ${min} to ${max}, got "${text}"`)
    return number
  }
  const appId = raw('githubAppId')?.trim() || undefined
  if (appId !== undefined && !/^\d+$/.test(appId))
    throw new ConfigError(`${where('githubAppId')}: expected the App's numeric id, got "${appId}"`)
  let privateKey = raw('githubAppPrivateKey')?.trim() || undefined
  if (privateKey !== undefined && !privateKey.startsWith('-----BEGIN')) {
    try {
      privateKey = readFileSync(privateKey, 'utf8')
    } catch {
      throw new ConfigError(
        `${where('githubAppPrivateKey')}: expected PEM text or a readable .pem file, got "${privateKey}"`,
      )
    }
  }
  const httpUrl = (name: GitSettingName): string | undefined => {
    const value = raw(name)?.trim().replace(/\/+$/, '') || undefined
    if (value !== undefined && !/^https?:\/\/[^/\s]+/.test(value))
      throw new ConfigError(`${where(name)}: expected an http(s):// URL, got "${value}"`)
    return value
  }
  const apiUrl = httpUrl('githubApiUrl') ?? 'https://api.github.com'
  const giteaToken = raw('giteaToken') || undefined
  const giteaApiUrl = httpUrl('giteaApiUrl')
  if (giteaToken && !giteaApiUrl)
    throw new ConfigError(
      `${where('giteaApiUrl')}: needed with --gitea-token, e.g. https://git.example.com/api/v1`,
    )
  const webhookKey = raw('gitWebhookKey') || undefined
  if (webhookKey !== undefined && webhookKey.length < 32)
    throw new ConfigError(`${where('gitWebhookKey')}: expected at least 32 characters of random text`)
  const allowHosts = (raw('gitAllowHosts') ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '')
  for (const entry of allowHosts)
    if (entry !== '*' && !/^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/.test(entry))
      throw new ConfigError(
        `${where('gitAllowHosts')}: expected host names like git.example.com or git.example.com:8443 (or *), got "${entry}"`,
      )
  const allowPrivate = (raw('gitAllowPrivateAddresses') ?? 'false').trim().toLowerCase()
  if (allowPrivate !== 'true' && allowPrivate !== 'false')
    throw new ConfigError(
      `${where('gitAllowPrivateAddresses')}: expected true or false, got "${allowPrivate}"`,
    )
  return {
    github: { appId, privateKey, webhookSecret: raw('githubWebhookSecret') || undefined, apiUrl },
    gitlab: {
      token: raw('gitlabToken') || undefined,
      apiUrl: httpUrl('gitlabApiUrl') ?? 'https://gitlab.com/api/v4',
    },
    gitea: { token: giteaToken, apiUrl: giteaApiUrl },
    webhookKey,
    maxWebhookBytes: integer('gitWebhookMaxBytes', 1024, 100 * 1024 * 1024),
    fetchTimeoutSeconds: integer('gitFetchTimeout', 1, 3600),
    maxFetchBytes: integer('gitMaxFetchBytes', 1024, 2 ** 40),
    maxTreeEntries: integer('gitMaxTreeEntries', 1, 10_000_000),
    allowHosts,
    allowPrivateAddresses: allowPrivate === 'true',
  }
}
