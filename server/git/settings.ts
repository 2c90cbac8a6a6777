/**
 * Git-connected deploy settings: the GitHub App (id, private key, webhook secret, API address for
 * GitHub Enterprise), the key that webhook secrets of GitLab and Gitea/Forgejo projects are derived
 * from, and the limits of a delivery and a fetch. They join the server's settings table (server/config.ts).
 */
import { readFileSync } from 'node:fs'
import { ConfigError } from '../config.js'

export interface GitConfig {
  github: {
    appId: string | undefined
    /** PEM text of the App's private key. */
    privateKey: string | undefined
    webhookSecret: string | undefined
    /** REST API base, `https://api.github.com` or `https://ghe.example.com/api/v3`. */
    apiUrl: string
  }
  /** Secret key webhook secrets are derived from; undefined: a key file in the data dir. */
  webhookKey: string | undefined
  /** Largest webhook body accepted; larger answers 413. */
  maxWebhookBytes: number
  /** Seconds one `git fetch` may take. */
  fetchTimeoutSeconds: number
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
  const apiUrl = (raw('githubApiUrl') ?? '').trim().replace(/\/+$/, '')
  if (!/^https?:\/\/[^/\s]+/.test(apiUrl))
    throw new ConfigError(`${where('githubApiUrl')}: expected an http(s):// URL, got "${apiUrl}"`)
  const webhookKey = raw('gitWebhookKey') || undefined
  if (webhookKey !== undefined && webhookKey.length < 32)
    throw new ConfigError(`${where('gitWebhookKey')}: expected at least 32 characters of random text`)
  return {
    github: { appId, privateKey, webhookSecret: raw('githubWebhookSecret') || undefined, apiUrl },
    webhookKey,
    maxWebhookBytes: integer('gitWebhookMaxBytes', 1024, 100 * 1024 * 1024),
    fetchTimeoutSeconds: integer('gitFetchTimeout', 1, 3600),
  }
}
