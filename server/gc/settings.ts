/**
 * Retention and garbage-collection settings: which deployments are kept, how long an unreferenced
 * blob waits before it is deleted, and how often the periodic collection runs. They join the server's
 * settings table (server/config.ts), so each is a flag and an environment variable.
 */
import { reuseRefreshMs } from '../blobs/store.js'
import { ConfigError } from '../config-error.js'

export interface RetentionConfig {
  /** Per project, this many of the deployments that were once live are kept (rollback targets). */
  keepDeployments: number
  /** Every deployment younger than this is kept, previews included; older previews expire. */
  keepAgeSeconds: number
  /** An unreferenced blob is deleted only once it is this old (uploads and builds in flight). */
  graceSeconds: number
  /** Seconds between periodic collections (one replica runs each); 0: only `docs-server gc`. */
  intervalSeconds: number
}

export const retentionSettings = {
  keepDeployments: {
    flag: 'keep-deployments',
    env: 'DOCS_KEEP_DEPLOYMENTS',
    description: 'deployments kept per project among those that were live (rollback targets)',
    default: '10',
  },
  keepAgeSeconds: {
    flag: 'keep-age',
    env: 'DOCS_KEEP_AGE',
    description: 'seconds every deployment is kept, previews included; older previews expire',
    default: String(7 * 24 * 3600),
  },
  gcGraceSeconds: {
    flag: 'gc-grace',
    env: 'DOCS_GC_GRACE',
    description: 'seconds an unreferenced blob is kept before garbage collection deletes it',
    default: '3600',
  },
  gcIntervalSeconds: {
    flag: 'gc-interval',
    env: 'DOCS_GC_INTERVAL',
    description: 'seconds between garbage collections; 0 turns the periodic run off',
    default: '3600',
  },
} as const

export type RetentionSettingName = keyof typeof retentionSettings

const where = (name: RetentionSettingName): string =>
  `--${retentionSettings[name].flag} / ${retentionSettings[name].env}`

/** Reads and checks the retention settings; `raw` gives a setting's flag, env or default value. */
export function readRetentionConfig(
  raw: (name: RetentionSettingName) => string | undefined,
  buildTimeoutSeconds: number,
): RetentionConfig {
  const integer = (name: RetentionSettingName, min: number, max: number): number => {
    const text = raw(name)?.trim() ?? ''
    const number = Number(text)
    if (!/^\d+$/.test(text) || number < min || number > max)
      throw new ConfigError(`${where(name)}: expected a whole number from ${min} to ${max}, got "${text}"`)
    return number
  }
  // A build reuses blobs (refreshing the old ones) and names them only when it finishes: the grace
  // period must outlast the longest build plus the refresh window, or a reused blob could go.
  const minimumGrace = buildTimeoutSeconds + reuseRefreshMs / 1000 + 60
  return {
    keepDeployments: integer('keepDeployments', 1, 100_000),
    keepAgeSeconds: integer('keepAgeSeconds', 0, 10 * 365 * 24 * 3600),
    graceSeconds: integer('gcGraceSeconds', minimumGrace, 365 * 24 * 3600),
    intervalSeconds: integer('gcIntervalSeconds', 0, 365 * 24 * 3600),
  }
}
