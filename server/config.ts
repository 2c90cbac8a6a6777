/**
 * The server's settings: each one a flag and an environment variable (flags win), validated once at
 * start so a bad value stops the process with a message that names the setting and what to fix.
 */
import { isIP } from 'node:net'
import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { readSignInConfig, type SignInConfig, signInSettings } from './auth/oauth/settings.js'
import { type BlobStoreConfig, blobSettings, readBlobConfig } from './blobs/settings.js'
import { type CdnPurgeTarget, cdnSettings, readCdnConfig } from './cdn/settings.js'
import { ConfigError } from './config-error.js'
import { type DomainConfig, domainSettings, readDomainConfig } from './domains/settings.js'
import { type RetentionConfig, readRetentionConfig, retentionSettings } from './gc/settings.js'
import { type GitConfig, gitSettings, readGitConfig } from './git/settings.js'

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
  /**
   * Proxies whose `X-Forwarded-For` is believed (addresses, CIDRs or proxy-addr's names), so rate
   * limits key on the real client; empty: the socket's address is the client, whatever the headers say.
   */
  trustProxy: string[]
  /** Seconds a CDN may keep an HTML page (browsers always revalidate). */
  cdnMaxAgeSeconds: number
  /** Bytes of hot site files kept in memory. */
  memoryCacheBytes: number
  /** Bytes of site manifests (counted as their JSON) kept in memory. */
  manifestCacheBytes: number
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
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

interface Setting {
  flag: string
  env: string
  description: string
  default: string | undefined
}

/** Every setting, in the order `docs-server --help` lists them. */
export const settings = {
  port: { flag: 'port', env: 'PORT', description: 'TCP port to listen on', default: '8080' },
  host: { flag: 'host', env: 'HOST', description: 'interface to listen on', default: '127.0.0.1' },
  dataDir: {
    flag: 'data-dir',
    env: 'DOCS_DATA_DIR',
    description: 'folder for the SQLite database and blobs',
    default: './.docs-data',
  },
  baseDomain: {
    flag: 'base-domain',
    env: 'DOCS_BASE_DOMAIN',
    description: 'sites are served at <slug>.<base-domain>',
    default: 'localhost:<port>',
  },
  apiHost: {
    flag: 'api-host',
    env: 'DOCS_API_HOST',
    description: 'host name the API answers on',
    default: 'localhost:<port>',
  },
  databaseUrl: {
    flag: 'database-url',
    env: 'DATABASE_URL',
    description: 'postgres://… to use PostgreSQL (unset: SQLite in the data dir)',
    default: undefined,
  },
  databaseSchema: {
    flag: 'database-schema',
    env: 'DOCS_DATABASE_SCHEMA',
    description: 'PostgreSQL schema (default public)',
    default: undefined,
  },
  maxFileBytes: {
    flag: 'max-file-bytes',
    env: 'DOCS_MAX_FILE_BYTES',
    description: 'largest file a deployment may hold',
    default: String(25 * 1024 * 1024),
  },
  maxFilesPerDeployment: {
    flag: 'max-files',
    env: 'DOCS_MAX_FILES',
    description: 'most files a deployment may hold',
    default: '20000',
  },
  buildWorkers: {
    flag: 'build-workers',
    env: 'DOCS_BUILD_WORKERS',
    description: 'deployments built at once (each with a build and a page thread); half the cores',
    default: String(Math.max(1, Math.floor(availableParallelism() / 2))),
  },
  buildTimeoutSeconds: {
    flag: 'build-timeout',
    env: 'DOCS_BUILD_TIMEOUT',
    description: 'seconds a build may run before it is stopped and marked failed',
    default: '600',
  },
  pageTimeoutSeconds: {
    flag: 'page-timeout',
    env: 'DOCS_PAGE_TIMEOUT',
    description: 'seconds of CPU time one page may take to render before it fails with a reason',
    default: '20',
  },
  buildMemoryMb: {
    flag: 'build-memory',
    env: 'DOCS_BUILD_MEMORY',
    description: 'heap limit in MB of each build thread (a page over it fails)',
    default: '512',
  },
  buildLeaseSeconds: {
    flag: 'build-lease',
    env: 'DOCS_BUILD_LEASE',
    description: "seconds a build lease holds unrenewed; a dead replica's build is retaken after it",
    default: '30',
  },
  redisUrl: {
    flag: 'redis-url',
    env: 'DOCS_REDIS_URL',
    description: 'redis://… to share rate limits between replicas (unset: per process)',
    default: undefined,
  },
  metricsToken: {
    flag: 'metrics-token',
    env: 'DOCS_METRICS_TOKEN',
    description: 'bearer token for Prometheus GET /metrics on the API host (unset: off)',
    default: undefined,
  },
  maxDeploymentBytes: {
    flag: 'max-deployment-bytes',
    env: 'DOCS_MAX_DEPLOYMENT_BYTES',
    description: 'total bytes of the files one deployment may list',
    default: String(2 * 1024 ** 3),
  },
  projectDeploymentsPerDay: {
    flag: 'project-deployments-per-day',
    env: 'DOCS_PROJECT_DEPLOYMENTS_PER_DAY',
    description: 'deployments a project may create in 24 hours',
    default: '500',
  },
  userDeploymentsPerDay: {
    flag: 'user-deployments-per-day',
    env: 'DOCS_USER_DEPLOYMENTS_PER_DAY',
    description: "deployments of one user's projects in 24 hours",
    default: '2000',
  },
  userFilesPerDay: {
    flag: 'user-files-per-day',
    env: 'DOCS_USER_FILES_PER_DAY',
    description: "files listed by one user's deployments in 24 hours",
    default: '2000000',
  },
  userBytesPerDay: {
    flag: 'user-bytes-per-day',
    env: 'DOCS_USER_BYTES_PER_DAY',
    description: "bytes listed by one user's deployments in 24 hours",
    default: String(100 * 1024 ** 3),
  },
  uploadExpirySeconds: {
    flag: 'upload-expiry',
    env: 'DOCS_UPLOAD_EXPIRY',
    description: 'seconds an unfinished upload is kept before it and its chunks are expired',
    default: String(24 * 3600),
  },
  tokenTtlSeconds: {
    flag: 'token-ttl',
    env: 'DOCS_TOKEN_TTL',
    description: 'seconds a token from `token create` stays valid',
    default: String(30 * 24 * 3600),
  },
  rateLimitPerMinute: {
    flag: 'rate-limit',
    env: 'DOCS_RATE_LIMIT',
    description: 'API requests a minute per token or IP',
    default: '600',
  },
  mcpRateLimitPerMinute: {
    flag: 'mcp-rate-limit',
    env: 'DOCS_MCP_RATE_LIMIT',
    description:
      "JSON-RPC calls a minute per client address to a site's /mcp endpoint (each call of a batch counts)",
    default: '120',
  },
  trustProxy: {
    flag: 'trust-proxy',
    env: 'DOCS_TRUST_PROXY',
    description: 'reverse proxies whose X-Forwarded-For to believe: addresses or CIDRs, comma-separated',
    default: undefined,
  },
  cdnMaxAgeSeconds: {
    flag: 'cdn-max-age',
    env: 'DOCS_CDN_MAX_AGE',
    description: 'seconds a CDN may cache an HTML page',
    default: '300',
  },
  memoryCacheBytes: {
    flag: 'memory-cache-bytes',
    env: 'DOCS_MEMORY_CACHE_BYTES',
    description: 'bytes of hot site files held in memory',
    default: String(64 * 1024 * 1024),
  },
  manifestCacheBytes: {
    flag: 'manifest-cache-bytes',
    env: 'DOCS_MANIFEST_CACHE_BYTES',
    description: 'bytes of site manifests (as JSON) held in memory',
    default: String(32 * 1024 * 1024),
  },
  logLevel: { flag: 'log-level', env: 'LOG_LEVEL', description: 'pino log level', default: 'info' },
  ...signInSettings,
  ...domainSettings,
  ...blobSettings,
  ...retentionSettings,
  ...cdnSettings,
  ...gitSettings,
} satisfies Record<string, Setting>

type SettingName = keyof typeof settings

export { ConfigError }

/** The text of `docs-server --help`. */
export function configHelp(): string {
  const rows = Object.values(settings).map((setting: Setting) => {
    // At least one space between a long flag and its description.
    const left = `  --${setting.flag} <value> `.padEnd(34)
    const fallback = setting.default === undefined ? '' : ` (default ${setting.default})`
    return `${left}${setting.description}${fallback}\n${''.padEnd(34)}env ${setting.env}`
  })
  return [
    'Usage: docs-server [start] [options]',
    '       docs-server token create --email <email> [options]',
    '       docs-server migrate [options]',
    '       docs-server gc [--dry-run] [options]',
    '',
    'Options (each also an environment variable; flags win):',
    ...rows,
    '  --help                        show this help',
  ].join('\n')
}

/** One entry of --trust-proxy as proxy-addr (Fastify's trustProxy) reads it: an address, a CIDR or a named range. */
function isProxyAddress(entry: string): boolean {
  if (entry === 'loopback' || entry === 'linklocal' || entry === 'uniquelocal') return true
  const [address = '', bits, ...rest] = entry.split('/')
  const family = isIP(address)
  if (family === 0 || rest.length > 0) return false
  if (bits === undefined) return true
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/**
 * Read settings from flags and the environment. Unknown flags are left in `rest` for subcommands
 * (`--email`); a bad value throws ConfigError naming the flag, the variable and what is expected.
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
  }
  for (const setting of Object.values(settings) as Setting[]) options[setting.flag] = { type: 'string' }
  options.email = { type: 'string' }
  options.name = { type: 'string' }
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}. Run docs-server --help for the options.`)
  }
  const raw = (name: SettingName): string | undefined => {
    const setting: Setting = settings[name]
    const fromFlag = parsed.values[setting.flag]
    if (typeof fromFlag === 'string') return fromFlag
    const fromEnv = env[setting.env]
    if (fromEnv !== undefined && fromEnv !== '') return fromEnv
    // `docs-server --port 8099` alone serves sites at <slug>.localhost:8099, not at a port it is not on.
    if (setting.default?.includes('<port>')) return setting.default.replace('<port>', raw('port') ?? '')
    return setting.default
  }
  const where = (name: SettingName): string => `--${settings[name].flag} / ${settings[name].env}`
  const integer = (name: SettingName, min: number, max: number): number => {
    const value = raw(name) ?? ''
    const number = Number(value)
    if (!/^\d+$/.test(value) || number < min || number > max) {
      throw new ConfigError(`${where(name)}: expected a whole number from ${min} to ${max}, got "${value}"`)
    }
    return number
  }
  const hostName = (name: SettingName): string => {
    const value = (raw(name) ?? '').toLowerCase()
    if (!/^[a-z0-9.-]+(:\d{1,5})?$/.test(value) || value.startsWith('.') || value.endsWith('.')) {
      throw new ConfigError(
        `${where(name)}: expected a host name like docs.example.com or localhost:8080, got "${value}"`,
      )
    }
    return value
  }
  const databaseUrl = raw('databaseUrl')
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`${where('databaseUrl')}: expected a postgres:// URL, got "${databaseUrl}"`)
  }
  const databaseSchema = raw('databaseSchema')
  if (databaseSchema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    throw new ConfigError(
      `${where('databaseSchema')}: expected a lowercase SQL identifier, got "${databaseSchema}"`,
    )
  }
  const redisUrl = raw('redisUrl')
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError(`${where('redisUrl')}: expected a redis:// or rediss:// URL, got "${redisUrl}"`)
  }
  const metricsToken = raw('metricsToken')
  if (metricsToken !== undefined && metricsToken.length < 16) {
    throw new ConfigError(
      `${where('metricsToken')}: expected at least 16 characters, got ${metricsToken.length}`,
    )
  }
  const logLevel = raw('logLevel') as ServerConfig['logLevel']
  if (!logLevels.includes(logLevel)) {
    throw new ConfigError(`${where('logLevel')}: expected one of ${logLevels.join(', ')}, got "${logLevel}"`)
  }
  const trustProxy = (raw('trustProxy') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  for (const entry of trustProxy) {
    if (!isProxyAddress(entry)) {
      throw new ConfigError(
        `${where('trustProxy')}: expected addresses or CIDRs like 10.0.0.1,192.168.0.0/16,::1 (or loopback, linklocal, uniquelocal), got "${entry}"`,
      )
    }
  }
  const host = raw('host') ?? ''
  if (host === '') throw new ConfigError(`${where('host')}: expected an interface address like 127.0.0.1`)
  const config: ServerConfig = {
    port: integer('port', 0, 65535),
    host,
    dataDir: resolve(raw('dataDir') ?? '.docs-data'),
    baseDomain: hostName('baseDomain'),
    apiHost: hostName('apiHost'),
    databaseUrl,
    databaseSchema,
    maxFileBytes: integer('maxFileBytes', 1, 2 ** 40),
    maxFilesPerDeployment: integer('maxFilesPerDeployment', 1, 1_000_000),
    maxRequestBytes: 4 * 1024 * 1024,
    buildWorkers: integer('buildWorkers', 1, 64),
    buildTimeoutSeconds: integer('buildTimeoutSeconds', 1, 24 * 3600),
    pageTimeoutSeconds: integer('pageTimeoutSeconds', 1, 3600),
    buildMemoryMb: integer('buildMemoryMb', 64, 64 * 1024),
    buildLeaseSeconds: integer('buildLeaseSeconds', 1, 3600),
    redisUrl,
    metricsToken,
    quotas: {
      maxDeploymentBytes: integer('maxDeploymentBytes', 1, 2 ** 50),
      projectDeploymentsPerDay: integer('projectDeploymentsPerDay', 1, 1_000_000),
      userDeploymentsPerDay: integer('userDeploymentsPerDay', 1, 10_000_000),
      userFilesPerDay: integer('userFilesPerDay', 1, 2 ** 40),
      userBytesPerDay: integer('userBytesPerDay', 1, 2 ** 53),
    },
    uploadExpirySeconds: integer('uploadExpirySeconds', 60, 365 * 24 * 3600),
    tokenTtlSeconds: integer('tokenTtlSeconds', 60, 10 * 365 * 24 * 3600),
    rateLimitPerMinute: integer('rateLimitPerMinute', 1, 1_000_000),
    mcpRateLimitPerMinute: integer('mcpRateLimitPerMinute', 1, 1_000_000),
    trustProxy,
    cdnMaxAgeSeconds: integer('cdnMaxAgeSeconds', 0, 365 * 24 * 3600),
    memoryCacheBytes: integer('memoryCacheBytes', 0, 2 ** 40),
    manifestCacheBytes: integer('manifestCacheBytes', 0, 2 ** 40),
    logLevel,
    signIn: readSignInConfig(raw, hostName('apiHost')),
    domains: readDomainConfig(raw),
    ...readBlobConfig(raw),
    retention: readRetentionConfig(raw, integer('buildTimeoutSeconds', 1, 24 * 3600)),
    cdnPurge: readCdnConfig(raw),
    git: readGitConfig(raw),
  }
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
