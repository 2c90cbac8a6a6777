/**
 * The shape of the retention and garbage-collection settings: which deployments are kept, how long an
 * unreferenced blob waits before it is deleted, and how often the periodic collection runs. Their
 * flags, variables, defaults and checks (the grace period outlasts a build) are in the settings table
 * (server/settings/table.ts, rules.ts); server/config.ts fills this shape.
 */
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
