/**
 * Rules between settings, as data beside the table: each names the settings it ties together, says the
 * rule in words (for the reference) and returns the error, worded by errors.ts, when values break it.
 */
import { reuseRefreshMs } from '../blobs/store.js'
import { badCombination, badValue, type ConfigError, conflicting, incomplete } from './errors.js'
import { type SettingName, type SettingValues, settings } from './table.js'

export interface SettingRule {
  /** The settings the rule ties together, as the reference lists them. */
  settings: readonly SettingName[]
  /** The rule in words, for the reference. */
  rule: string
  /** The error that stops the server when the values break the rule; undefined when they keep it. */
  check(values: SettingValues): ConfigError | undefined
}

const oidc = ['oidcIssuer', 'oidcClientId', 'oidcClientSecret'] as const
const github = ['githubClientId', 'githubClientSecret'] as const

const isSet = (values: SettingValues) => (name: SettingName) => values[name] !== undefined

/** All of them or none: a feature set halfway is an error that lists what is missing. */
function allOrNone(feature: string, names: readonly SettingName[]): SettingRule {
  return {
    settings: names,
    rule: `${feature} needs all of these, or none`,
    check: (values) =>
      names.some(isSet(values)) && !names.every(isSet(values))
        ? incomplete(
            feature,
            names.map((name) => settings[name]),
          )
        : undefined,
  }
}

/**
 * A build reuses blobs (refreshing the old ones) and names them only when it finishes: the grace period
 * must outlast the longest build plus the refresh window, or a reused blob could go.
 */
const graceMargin = reuseRefreshMs / 1000 + 60

export const settingRules: readonly SettingRule[] = [
  {
    settings: [...oidc, ...github],
    rule: 'one identity provider: OpenID Connect or GitHub, not both',
    check: (values) =>
      oidc.some(isSet(values)) && github.some(isSet(values))
        ? conflicting('OpenID Connect (--oidc-*)', 'GitHub (--github-*)', 'sign-in')
        : undefined,
  },
  allOrNone('OpenID Connect sign-in', oidc),
  allOrNone('GitHub sign-in', github),
  {
    settings: ['s3AccessKeyId', 's3SecretAccessKey'],
    rule: 'both S3 keys, or neither to use the AWS SDK credential chain',
    check: (values) =>
      (values.s3AccessKeyId === undefined) !== (values.s3SecretAccessKey === undefined)
        ? badCombination(
            [settings.s3AccessKeyId, settings.s3SecretAccessKey],
            'set both, or neither to use the AWS SDK credential chain',
          )
        : undefined,
  },
  {
    settings: ['cdnPurge', 'cdnPurgeToken'],
    rule: 'Cloudflare and Fastly purges need an API token',
    check: ({ cdnPurge, cdnPurgeToken }) =>
      (cdnPurge?.kind === 'cloudflare' || cdnPurge?.kind === 'fastly') && cdnPurgeToken === undefined
        ? badValue(settings.cdnPurgeToken, `${cdnPurge.kind} purges need an API token`)
        : undefined,
  },
  {
    settings: ['giteaToken', 'giteaApiUrl'],
    rule: 'a Gitea/Forgejo token needs the API address of its server',
    check: (values) =>
      values.giteaToken !== undefined && values.giteaApiUrl === undefined
        ? badValue(settings.giteaApiUrl, 'needed with --gitea-token, e.g. https://git.example.com/api/v1')
        : undefined,
  },
  {
    settings: ['gcGraceSeconds', 'buildTimeoutSeconds'],
    rule: `the blob grace period outlasts a build: at least the build timeout + ${graceMargin} seconds`,
    check: ({ gcGraceSeconds, buildTimeoutSeconds }) => {
      const minimum = buildTimeoutSeconds + graceMargin
      return gcGraceSeconds < minimum
        ? badValue(
            settings.gcGraceSeconds,
            `expected a whole number from ${minimum} to ${settings.gcGraceSeconds.parse.max} (the build timeout + ${graceMargin}), got "${gcGraceSeconds}"`,
          )
        : undefined
    },
  },
]

/** Throws the first broken rule's error. */
export function checkSettingRules(values: SettingValues): void {
  for (const rule of settingRules) {
    const error = rule.check(values)
    if (error) throw error
  }
}
