/**
 * The server's settings as one typed object. Every setting is declared once in the table
 * (server/settings/table.ts: flag, environment variable, default, parser, help line); this module reads
 * the command line, gets the checked values from the table and shapes them into ServerConfig. A bad
 * value stops the process with a ConfigError (server/settings/errors.ts) naming the setting and what
 * to fix.
 */
import { parseArgs } from 'node:util'
import type { SignInConfig } from './auth/oauth/settings.js'
import type { BlobStoreConfig } from './blobs/settings.js'
import type { CdnPurgeTarget } from './cdn/settings.js'
import type { DomainConfig } from './domains/settings.js'
import type { RetentionConfig } from './gc/settings.js'
import type { GitConfig } from './git/settings.js'
import { badCommandLine, unknownOption } from './settings/errors.js'
import { flagsThenEnvironment, readSettings } from './settings/read.js'
import { type SettingValues, settings } from './settings/table.js'

export interface ServerConfig {
  port: number
  host: string
  /** SQLite database and blobs live here unless DATABASE_URL points at PostgreSQL. */
  dataDir: string
  /** Sites answer on `<slug>.<baseDomain>`; may carry a port (`localhost:8080`). */
  baseDomain: string
  /** The only host name on which the API answers (plus bare IP addresses). */
  apiHost: string
  databaseUrl: string | undefined
  /** PostgreSQL schema to use instead of `public` (tests run each in a fresh one). */
  databaseSchema: string | undefined
  maxFileBytes: number
  maxFilesPerDeployment: number
  /** One multipart batch or one chunk of a large file. */
  maxRequestBytes: number
  buildWorkers: number
  buildTimeoutSeconds: number
  /** Headless Chromium for change-report screenshots; none: reports say they have no images. */
  chromiumPath: string | undefined
  /** Changed pages a change report screenshots. */
  reportScreenshots: number
  /** Seconds one page may render before it fails with a reason. */
  pageTimeoutSeconds: number
  /** Heap limit of each build thread, in MB. */
  buildMemoryMb: number
  /** Seconds a build's lease holds without renewal: how soon another replica retakes a dead one's build. */
  buildLeaseSeconds: number
  /** redis://… to hold rate limits in Redis, shared by every replica (unset: per process). */
  redisUrl: string | undefined
  /** Bearer token that `GET /metrics` requires (unset: /metrics is off). */
  metricsToken: string | undefined
  /** Quotas: bytes one deployment may list; deployments, files and bytes a day per project and user. */
  quotas: DeploymentQuotas
  /** Deployments still uploading this long after creation are expired with their chunk files. */
  uploadExpirySeconds: number
  /** How long a session token made by `docs-server token create` stays valid. */
  tokenTtlSeconds: number
  rateLimitPerMinute: number
  /** Requests a minute each client address may send to a site's MCP endpoint (`<site>/mcp`). */
  mcpRateLimitPerMinute: number
  /** Reader events a minute each client address may send to a site's `/_docs/events`. */
  insightsRateLimitPerMinute: number
  /** Days raw reader events are kept before only their daily counts remain. */
  insightsKeepDays: number
  /**
   * Proxies whose `X-Forwarded-For` is believed (addresses, CIDRs or proxy-addr's names), so rate
   * limits key on the real client; empty: the socket's address is the client, whatever the headers say.
   */
  trustProxy: string[]
  /** Seconds a shared cache may keep a page (`s-maxage`; browsers always revalidate). */
  cdnMaxAgeSeconds: number
  /** Seconds past that a shared cache may serve a page while fetching it again. */
  cdnStaleWhileRevalidateSeconds: number
  /** Seconds past that a shared cache may serve a page while the server fails. */
  cdnStaleIfErrorSeconds: number
  /** Bytes of hot site files kept in memory. */
  memoryCacheBytes: number
  /** Bytes of site manifests (counted as their JSON) kept in memory. */
  manifestCacheBytes: number
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Seconds `start` may take before the process gives up and exits 1, naming the step it was at. */
  startupTimeoutSeconds: number
  /** Seconds SIGTERM waits for in-flight requests and builds before the process exits anyway. */
  shutdownGraceSeconds: number
  /** Identity provider, public URL and brute-force limit of the CLI sign-in. */
  signIn: SignInConfig
  /** DNS checks and background re-checks of custom domains. */
  domains: DomainConfig
  /** Where blobs live: the data dir's `blobs/` folder or an S3-compatible bucket. */
  blobStore: BlobStoreConfig
  /** Bytes of S3 blobs kept in the data dir for serving; unused with the filesystem store. */
  blobCacheBytes: number
  /** MB the data dir's disk needs free at start; with less the server starts read-only. */
  minFreeDiskMb: number
  /** Which deployments are kept and when unreferenced blobs are deleted. */
  retention: RetentionConfig
  /** Where CDN purges go when a site changes; `none` sends none. */
  cdnPurge: CdnPurgeTarget
  /** Git-connected deploys: the GitHub App, webhook secrets, limits. */
  git: GitConfig
}

export interface DeploymentQuotas {
  maxDeploymentBytes: number
  projectDeploymentsPerDay: number
  userDeploymentsPerDay: number
  userFilesPerDay: number
  userBytesPerDay: number
}

/** Default API addresses of the CDNs whose purges the server sends. */
const cdnApis = { cloudflare: 'https://api.cloudflare.com/client/v4', fastly: 'https://api.fastly.com' }

/** Where CDN purges go; a Cloudflare or Fastly one has its token (a rule in server/settings/rules.ts). */
function purgeTarget({ cdnPurge, cdnPurgeToken = '', cdnPurgeApi }: SettingValues): CdnPurgeTarget {
  if (cdnPurge === undefined) return { kind: 'none' }
  if (cdnPurge.kind === 'webhook')
    return { kind: 'webhook', url: cdnPurge.url, secret: cdnPurgeToken || undefined }
  if (cdnPurge.kind === 'varnish') return { kind: 'varnish', nodes: cdnPurge.urls }
  const api = cdnPurgeApi ?? cdnApis[cdnPurge.kind]
  return cdnPurge.kind === 'cloudflare'
    ? { kind: 'cloudflare', zoneId: cdnPurge.id, token: cdnPurgeToken, api }
    : { kind: 'fastly', serviceId: cdnPurge.id, token: cdnPurgeToken, api }
}

/** The checked values of the table, shaped as the modules that use them expect. */
export function serverConfig(values: SettingValues): ServerConfig {
  return {
    port: values.port,
    host: values.host,
    dataDir: values.dataDir,
    baseDomain: values.baseDomain,
    apiHost: values.apiHost,
    databaseUrl: values.databaseUrl,
    databaseSchema: values.databaseSchema,
    maxFileBytes: values.maxFileBytes,
    maxFilesPerDeployment: values.maxFilesPerDeployment,
    maxRequestBytes: 4 * 1024 * 1024,
    buildWorkers: values.buildWorkers,
    buildTimeoutSeconds: values.buildTimeoutSeconds,
    chromiumPath: values.chromium,
    reportScreenshots: values.reportScreenshots,
    pageTimeoutSeconds: values.pageTimeoutSeconds,
    buildMemoryMb: values.buildMemoryMb,
    buildLeaseSeconds: values.buildLeaseSeconds,
    redisUrl: values.redisUrl,
    metricsToken: values.metricsToken,
    quotas: {
      maxDeploymentBytes: values.maxDeploymentBytes,
      projectDeploymentsPerDay: values.projectDeploymentsPerDay,
      userDeploymentsPerDay: values.userDeploymentsPerDay,
      userFilesPerDay: values.userFilesPerDay,
      userBytesPerDay: values.userBytesPerDay,
    },
    uploadExpirySeconds: values.uploadExpirySeconds,
    tokenTtlSeconds: values.tokenTtlSeconds,
    rateLimitPerMinute: values.rateLimitPerMinute,
    mcpRateLimitPerMinute: values.mcpRateLimitPerMinute,
    insightsRateLimitPerMinute: values.insightsRateLimitPerMinute,
    insightsKeepDays: values.insightsKeepDays,
    trustProxy: values.trustProxy ?? [],
    cdnMaxAgeSeconds: values.cdnMaxAgeSeconds,
    cdnStaleWhileRevalidateSeconds: values.cdnStaleWhileRevalidateSeconds,
    cdnStaleIfErrorSeconds: values.cdnStaleIfErrorSeconds,
    memoryCacheBytes: values.memoryCacheBytes,
    manifestCacheBytes: values.manifestCacheBytes,
    logLevel: values.logLevel,
    startupTimeoutSeconds: values.startupTimeoutSeconds,
    shutdownGraceSeconds: values.shutdownGraceSeconds,
    signIn: {
      publicUrl: values.publicUrl,
      oidcIssuer: values.oidcIssuer,
      oidcClientId: values.oidcClientId,
      oidcClientSecret: values.oidcClientSecret,
      githubClientId: values.githubClientId,
      githubClientSecret: values.githubClientSecret,
      githubUrl: values.githubUrl,
      rateLimitPerMinute: values.signInRateLimit,
    },
    domains: {
      dnsResolver: values.dnsResolver,
      dnsTimeoutMs: values.dnsTimeoutMs,
      recheckSeconds: values.domainRecheckSeconds,
      graceSeconds: values.domainGraceSeconds,
      apexAddresses: values.apexAddresses ?? [],
      pendingDays: values.domainPendingDays,
      pendingPerUser: values.domainPendingLimit,
    },
    blobStore:
      values.blobStore === undefined
        ? { kind: 'filesystem' }
        : {
            kind: 's3',
            ...values.blobStore,
            endpoint: values.s3Endpoint,
            region: values.s3Region,
            forcePathStyle: values.s3ForcePathStyle,
            credentials:
              values.s3AccessKeyId !== undefined && values.s3SecretAccessKey !== undefined
                ? { accessKeyId: values.s3AccessKeyId, secretAccessKey: values.s3SecretAccessKey }
                : undefined,
          },
    blobCacheBytes: values.blobCacheBytes,
    minFreeDiskMb: values.minFreeDiskMb,
    retention: {
      keepDeployments: values.keepDeployments,
      keepAgeSeconds: values.keepAgeSeconds,
      graceSeconds: values.gcGraceSeconds,
      intervalSeconds: values.gcIntervalSeconds,
    },
    cdnPurge: purgeTarget(values),
    git: {
      github: {
        appId: values.githubAppId,
        privateKey: values.githubAppPrivateKey,
        webhookSecret: values.githubWebhookSecret,
        apiUrl: values.githubApiUrl,
      },
      gitlab: { token: values.gitlabToken, apiUrl: values.gitlabApiUrl },
      gitea: { token: values.giteaToken, apiUrl: values.giteaApiUrl },
      webhookKey: values.gitWebhookKey,
      maxWebhookBytes: values.gitWebhookMaxBytes,
      fetchTimeoutSeconds: values.gitFetchTimeout,
      maxFetchBytes: values.gitMaxFetchBytes,
      maxTreeEntries: values.gitMaxTreeEntries,
      allowHosts: values.gitAllowHosts ?? [],
      allowPrivateAddresses: values.gitAllowPrivateAddresses,
    },
  }
}

/**
 * Read settings from flags and the environment. `--email` and `--name` (token create) come back in
 * `extra`; a bad value throws ConfigError naming the flag, the variable and what is expected.
 */
export function loadConfig(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): {
  config: ServerConfig
  positionals: string[]
  extra: Record<string, string>
  help: boolean
  /** `gc --dry-run`: report what would be deleted, delete nothing. */
  dryRun: boolean
} {
  const options: Record<string, { type: 'string' | 'boolean' }> = {
    help: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    email: { type: 'string' },
    name: { type: 'string' },
  }
  for (const setting of Object.values(settings)) options[setting.flag] = { type: 'string' }
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true })
  } catch (error) {
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message)?.[1]
    if (unknown)
      throw unknownOption(
        unknown,
        Object.keys(options).map((flag) => `--${flag}`),
      )
    throw badCommandLine((error as Error).message)
  }
  const config = serverConfig(readSettings(flagsThenEnvironment(parsed.values, env)))
  const extra: Record<string, string> = {}
  for (const key of ['email', 'name']) {
    const value = parsed.values[key]
    if (typeof value === 'string') extra[key] = value
  }
  return {
    config,
    positionals: parsed.positionals,
    extra,
    help: parsed.values.help === true,
    dryRun: parsed.values['dry-run'] === true,
  }
}

/** Settings for tests and embedding: the defaults with a few overrides. */
export function defaultConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return { ...loadConfig([], {}).config, ...overrides }
}
