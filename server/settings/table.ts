/**
 * Every setting of docs-server, as data: its flag, its environment variable, its default, the parser
 * that checks it and its help line, grouped. `docs-server --help` (help.ts), the reference
 * docs/reference/server-settings.mdx (reference.ts), the typed values (read.ts) and every message about a bad
 * value (errors.ts) come from this table. Rules between settings are in rules.ts. A new setting is
 * one entry here and one field where config.ts assembles ServerConfig.
 */
import { availableParallelism } from 'node:os'
import { isLoopbackHost } from '../auth/providers/index.js'
import {
  appId,
  cdnPurgeDestination,
  folder,
  gitHosts,
  hostName,
  httpUrl,
  ipAddresses,
  oneOf,
  type Parser,
  pemOrFile,
  plainText,
  proxyAddresses,
  resolverAddress,
  s3Location,
  secret,
  secureUrl,
  sqlIdentifier,
  trueOrFalse,
  urlOf,
  wholeAmount,
  wholeNumber,
} from './parsers.js'

/** The groups of --help and of the reference, in their order, with their titles. */
export const settingGroups = {
  server: 'Listening and hosts',
  storage: 'Database and blob storage',
  builds: 'Builds',
  limits: 'Limits and quotas',
  caching: 'Caching and CDN',
  signIn: 'Sign-in',
  domains: 'Custom domains',
  retention: 'Retention and garbage collection',
  git: 'Git-connected deploys',
} as const

export type SettingGroup = keyof typeof settingGroups

/** A default that follows another setting or the machine: `shown` is what --help and the docs print. */
export interface DerivedDefault {
  shown: string
  /**
   * The default's text, given the text (flag, variable or default) of another setting by its name in the
   * table (a string: the table's names are not known while the table is typed).
   */
  value(textOf: (name: string) => string | undefined): string
}

export interface SettingSpec<T> {
  /** `--port`, without the dashes. */
  flag: string
  /** `PORT`: the environment variable read when the flag is not given. */
  env: string
  group: SettingGroup
  /** One line for --help and the reference. */
  help: string
  /** Text parsed when neither the flag nor the variable is set; none: the setting is off (undefined). */
  default?: string | DerivedDefault
  parse: Parser<T>
}

const day = 24 * 3600
const year = 365 * day

/** `localhost:<port>`: `docs-server --port 8099` alone serves sites at <slug>.localhost:8099. */
const localhostAtPort: DerivedDefault = {
  shown: 'localhost:<port>',
  value: (textOf) => `localhost:${textOf('port') ?? ''}`,
}

/** Every setting, in the order `docs-server --help` lists them (grouped). */
export const settings = {
  // Listening and hosts
  port: {
    flag: 'port',
    env: 'PORT',
    group: 'server',
    help: 'TCP port to listen on',
    default: '8080',
    parse: wholeNumber(0, 65535),
  },
  host: {
    flag: 'host',
    env: 'HOST',
    group: 'server',
    help: 'interface to listen on',
    default: '127.0.0.1',
    parse: plainText,
  },
  baseDomain: {
    flag: 'base-domain',
    env: 'DOCS_BASE_DOMAIN',
    group: 'server',
    help: 'sites are served at <slug>.<base-domain>',
    default: localhostAtPort,
    parse: hostName,
  },
  apiHost: {
    flag: 'api-host',
    env: 'DOCS_API_HOST',
    group: 'server',
    help: 'host name the API answers on',
    default: localhostAtPort,
    parse: hostName,
  },
  trustProxy: {
    flag: 'trust-proxy',
    env: 'DOCS_TRUST_PROXY',
    group: 'server',
    help: 'reverse proxies whose X-Forwarded-For to believe: addresses or CIDRs, comma-separated',
    parse: proxyAddresses,
  },
  logLevel: {
    flag: 'log-level',
    env: 'LOG_LEVEL',
    group: 'server',
    help: 'pino log level',
    default: 'info',
    parse: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  },
  metricsToken: {
    flag: 'metrics-token',
    env: 'DOCS_METRICS_TOKEN',
    group: 'server',
    help: 'bearer token for Prometheus GET /metrics on the API host (unset: off)',
    parse: secret(16),
  },
  startupTimeoutSeconds: {
    flag: 'startup-timeout',
    env: 'DOCS_STARTUP_TIMEOUT',
    group: 'server',
    help: 'seconds start-up may take; past them the process exits 1 naming the step it waited on',
    default: '120',
    parse: wholeNumber(1, 3600),
  },
  shutdownGraceSeconds: {
    flag: 'shutdown-grace',
    env: 'DOCS_SHUTDOWN_GRACE',
    group: 'server',
    help: 'seconds SIGTERM waits for in-flight requests and builds before exiting anyway (code 1)',
    default: '60',
    parse: wholeNumber(1, 3600),
  },

  // Database and blob storage
  dataDir: {
    flag: 'data-dir',
    env: 'DOCS_DATA_DIR',
    group: 'storage',
    help: 'folder for the SQLite database and blobs',
    default: './.docs-data',
    parse: folder,
  },
  databaseUrl: {
    flag: 'database-url',
    env: 'DATABASE_URL',
    group: 'storage',
    help: 'postgres://… to use PostgreSQL (unset: SQLite in the data dir)',
    parse: urlOf(/^postgres(ql)?:\/\//, 'a postgres:// URL'),
  },
  databaseSchema: {
    flag: 'database-schema',
    env: 'DOCS_DATABASE_SCHEMA',
    group: 'storage',
    help: 'PostgreSQL schema (default public)',
    parse: sqlIdentifier,
  },
  blobStore: {
    flag: 'blob-store',
    env: 'DOCS_BLOB_STORE',
    group: 'storage',
    help: 's3://bucket/prefix to keep blobs in an S3-compatible bucket (unset: the data dir)',
    parse: s3Location,
  },
  s3Endpoint: {
    flag: 's3-endpoint',
    env: 'DOCS_S3_ENDPOINT',
    group: 'storage',
    help: 'URL of an S3-compatible service (unset: AWS S3)',
    parse: httpUrl,
  },
  s3Region: {
    flag: 's3-region',
    env: 'DOCS_S3_REGION',
    group: 'storage',
    help: 'S3 region',
    default: 'us-east-1',
    parse: plainText,
  },
  s3ForcePathStyle: {
    flag: 's3-force-path-style',
    env: 'DOCS_S3_FORCE_PATH_STYLE',
    group: 'storage',
    help: 'true: bucket in the path, not the host name (MinIO, Garage)',
    default: 'false',
    parse: trueOrFalse,
  },
  s3AccessKeyId: {
    flag: 's3-access-key-id',
    env: 'DOCS_S3_ACCESS_KEY_ID',
    group: 'storage',
    help: 'S3 access key id (unset: the AWS SDK credential chain)',
    parse: plainText,
  },
  s3SecretAccessKey: {
    flag: 's3-secret-access-key',
    env: 'DOCS_S3_SECRET_ACCESS_KEY',
    group: 'storage',
    help: 'S3 secret access key; prefer the environment variable',
    parse: plainText,
  },
  blobCacheBytes: {
    flag: 'blob-cache-bytes',
    env: 'DOCS_BLOB_CACHE_BYTES',
    group: 'storage',
    help: 'bytes of S3 blobs kept on local disk for serving (0: none)',
    default: String(1024 ** 3),
    parse: wholeAmount('bytes', 2 ** 50),
  },
  minFreeDiskMb: {
    flag: 'min-free-disk',
    env: 'DOCS_MIN_FREE_DISK',
    group: 'storage',
    help: "MB the data dir's disk must have free at start; with less the server starts read-only (serves sites, refuses changes)",
    default: '64',
    parse: wholeAmount('MB', 2 ** 40),
  },

  // Builds
  buildWorkers: {
    flag: 'build-workers',
    env: 'DOCS_BUILD_WORKERS',
    group: 'builds',
    help: 'deployments built at once (each with a build and a page thread)',
    default: {
      shown: 'half the cores, at least 1',
      value: () => String(Math.max(1, Math.floor(availableParallelism() / 2))),
    },
    parse: wholeNumber(1, 64),
  },
  buildTimeoutSeconds: {
    flag: 'build-timeout',
    env: 'DOCS_BUILD_TIMEOUT',
    group: 'builds',
    help: 'seconds a build may run before it is stopped and marked failed',
    default: '600',
    parse: wholeNumber(1, day),
  },
  pageTimeoutSeconds: {
    flag: 'page-timeout',
    env: 'DOCS_PAGE_TIMEOUT',
    group: 'builds',
    help: 'seconds of CPU time one page may take to render before it fails with a reason',
    default: '20',
    parse: wholeNumber(1, 3600),
  },
  chromium: {
    flag: 'chromium',
    env: 'DOCS_CHROMIUM',
    group: 'builds',
    help: 'path of a headless Chromium: preview change reports then hold screenshots of changed pages (none without it)',
    parse: plainText,
  },
  reportScreenshots: {
    flag: 'report-screenshots',
    env: 'DOCS_REPORT_SCREENSHOTS',
    group: 'builds',
    help: 'changed pages a change report screenshots (desktop and phone width, live and preview)',
    default: '5',
    parse: wholeNumber(0, 100),
  },
  buildMemoryMb: {
    flag: 'build-memory',
    env: 'DOCS_BUILD_MEMORY',
    group: 'builds',
    help: 'heap limit in MB of each build thread (a page over it fails)',
    default: '512',
    parse: wholeNumber(64, 64 * 1024),
  },
  buildLeaseSeconds: {
    flag: 'build-lease',
    env: 'DOCS_BUILD_LEASE',
    group: 'builds',
    help: "seconds a build lease holds unrenewed; a dead replica's build is retaken after it",
    default: '30',
    parse: wholeNumber(1, 3600),
  },

  // Limits and quotas
  maxFileBytes: {
    flag: 'max-file-bytes',
    env: 'DOCS_MAX_FILE_BYTES',
    group: 'limits',
    help: 'largest file a deployment may hold',
    default: String(25 * 1024 * 1024),
    parse: wholeNumber(1, 2 ** 40),
  },
  maxFilesPerDeployment: {
    flag: 'max-files',
    env: 'DOCS_MAX_FILES',
    group: 'limits',
    help: 'most files a deployment may hold',
    default: '20000',
    parse: wholeNumber(1, 1_000_000),
  },
  maxDeploymentBytes: {
    flag: 'max-deployment-bytes',
    env: 'DOCS_MAX_DEPLOYMENT_BYTES',
    group: 'limits',
    help: 'total bytes of the files one deployment may list',
    default: String(2 * 1024 ** 3),
    parse: wholeNumber(1, 2 ** 50),
  },
  projectDeploymentsPerDay: {
    flag: 'project-deployments-per-day',
    env: 'DOCS_PROJECT_DEPLOYMENTS_PER_DAY',
    group: 'limits',
    help: 'deployments a project may create in 24 hours',
    default: '500',
    parse: wholeNumber(1, 1_000_000),
  },
  userDeploymentsPerDay: {
    flag: 'user-deployments-per-day',
    env: 'DOCS_USER_DEPLOYMENTS_PER_DAY',
    group: 'limits',
    help: "deployments of one user's projects in 24 hours",
    default: '2000',
    parse: wholeNumber(1, 10_000_000),
  },
  userFilesPerDay: {
    flag: 'user-files-per-day',
    env: 'DOCS_USER_FILES_PER_DAY',
    group: 'limits',
    help: "files listed by one user's deployments in 24 hours",
    default: '2000000',
    parse: wholeNumber(1, 2 ** 40),
  },
  userBytesPerDay: {
    flag: 'user-bytes-per-day',
    env: 'DOCS_USER_BYTES_PER_DAY',
    group: 'limits',
    help: "bytes listed by one user's deployments in 24 hours",
    default: String(100 * 1024 ** 3),
    parse: wholeNumber(1, 2 ** 53),
  },
  uploadExpirySeconds: {
    flag: 'upload-expiry',
    env: 'DOCS_UPLOAD_EXPIRY',
    group: 'limits',
    help: 'seconds an unfinished upload is kept before it and its chunks are expired',
    default: String(day),
    parse: wholeNumber(60, year),
  },
  tokenTtlSeconds: {
    flag: 'token-ttl',
    env: 'DOCS_TOKEN_TTL',
    group: 'limits',
    help: 'seconds a token from `token create` stays valid',
    default: String(30 * day),
    parse: wholeNumber(60, 10 * year),
  },
  rateLimitPerMinute: {
    flag: 'rate-limit',
    env: 'DOCS_RATE_LIMIT',
    group: 'limits',
    help: 'API requests a minute per token or IP',
    default: '600',
    parse: wholeNumber(1, 1_000_000),
  },
  mcpRateLimitPerMinute: {
    flag: 'mcp-rate-limit',
    env: 'DOCS_MCP_RATE_LIMIT',
    group: 'limits',
    help: "JSON-RPC calls a minute per client address to a site's /mcp endpoint (each call of a batch counts)",
    default: '120',
    parse: wholeNumber(1, 1_000_000),
  },
  insightsRateLimitPerMinute: {
    flag: 'insights-rate-limit',
    env: 'DOCS_INSIGHTS_RATE_LIMIT',
    group: 'limits',
    help: "reader events a minute per client address to a site's /_docs/events endpoint",
    default: '120',
    parse: wholeNumber(1, 1_000_000),
  },
  redisUrl: {
    flag: 'redis-url',
    env: 'DOCS_REDIS_URL',
    group: 'limits',
    help: 'redis://… to share rate limits (API, reader events, site MCP) between replicas (unset: per process)',
    parse: urlOf(/^rediss?:\/\//, 'a redis:// or rediss:// URL'),
  },

  // Caching and CDN
  cdnMaxAgeSeconds: {
    flag: 'cdn-max-age',
    env: 'DOCS_CDN_MAX_AGE',
    group: 'caching',
    help: 'seconds a shared cache (CDN, Varnish) may serve a page before asking again: s-maxage',
    default: '300',
    parse: wholeNumber(0, year),
  },
  cdnStaleWhileRevalidateSeconds: {
    flag: 'cdn-stale-while-revalidate',
    env: 'DOCS_CDN_STALE_WHILE_REVALIDATE',
    group: 'caching',
    help: 'seconds past s-maxage a shared cache may serve a page while it fetches it again',
    default: '60',
    parse: wholeNumber(0, year),
  },
  cdnStaleIfErrorSeconds: {
    flag: 'cdn-stale-if-error',
    env: 'DOCS_CDN_STALE_IF_ERROR',
    group: 'caching',
    help: 'seconds past s-maxage a shared cache may serve a page while the server fails or is down',
    default: String(day),
    parse: wholeNumber(0, year),
  },
  memoryCacheBytes: {
    flag: 'memory-cache-bytes',
    env: 'DOCS_MEMORY_CACHE_BYTES',
    group: 'caching',
    help: 'bytes of hot site files held in memory',
    default: String(64 * 1024 * 1024),
    parse: wholeNumber(0, 2 ** 40),
  },
  manifestCacheBytes: {
    flag: 'manifest-cache-bytes',
    env: 'DOCS_MANIFEST_CACHE_BYTES',
    group: 'caching',
    help: 'bytes of site manifest heads and shards (as JSON) held in memory',
    default: String(32 * 1024 * 1024),
    parse: wholeNumber(0, 2 ** 40),
  },
  cdnPurge: {
    flag: 'cdn-purge',
    env: 'DOCS_CDN_PURGE',
    group: 'caching',
    help: 'purge a CDN on changes: cloudflare:<zone id>, fastly:<service id>, varnish:<url>[,<url>…] or webhook:<https url>',
    parse: cdnPurgeDestination,
  },
  cdnPurgeToken: {
    flag: 'cdn-purge-token',
    env: 'DOCS_CDN_PURGE_TOKEN',
    group: 'caching',
    help: 'Cloudflare API token, Fastly API key, or the webhook signing secret',
    parse: plainText,
  },
  cdnPurgeApi: {
    flag: 'cdn-purge-api',
    env: 'DOCS_CDN_PURGE_API',
    group: 'caching',
    help: "base URL of the CDN's API (default: Cloudflare's or Fastly's)",
    parse: httpUrl,
  },

  // Sign-in
  publicUrl: {
    flag: 'public-url',
    env: 'DOCS_PUBLIC_URL',
    group: 'signIn',
    help: 'public URL of the API, for sign-in callbacks',
    default: {
      shown: 'http(s)://<api-host> (http only on loopback)',
      value(textOf): string {
        const apiHost: string = (textOf('apiHost') ?? '').trim().toLowerCase()
        return `${isLoopbackHost(apiHost.replace(/:\d+$/, '')) ? 'http' : 'https'}://${apiHost}`
      },
    },
    parse: {
      accepts: httpUrl.accepts,
      parse: (text) => new URL(httpUrl.parse(text)).href.replace(/\/+$/, ''),
    },
  },
  oidcIssuer: {
    flag: 'oidc-issuer',
    env: 'DOCS_OIDC_ISSUER',
    group: 'signIn',
    help: 'sign in with this OpenID Connect issuer (https URL)',
    parse: secureUrl(isLoopbackHost),
  },
  oidcClientId: {
    flag: 'oidc-client-id',
    env: 'DOCS_OIDC_CLIENT_ID',
    group: 'signIn',
    help: 'OIDC client id',
    parse: plainText,
  },
  oidcClientSecret: {
    flag: 'oidc-client-secret',
    env: 'DOCS_OIDC_CLIENT_SECRET',
    group: 'signIn',
    help: 'OIDC client secret',
    parse: plainText,
  },
  githubClientId: {
    flag: 'github-client-id',
    env: 'DOCS_GITHUB_CLIENT_ID',
    group: 'signIn',
    help: 'sign in with GitHub: the OAuth app client id',
    parse: plainText,
  },
  githubClientSecret: {
    flag: 'github-client-secret',
    env: 'DOCS_GITHUB_CLIENT_SECRET',
    group: 'signIn',
    help: 'the GitHub OAuth app client secret',
    parse: plainText,
  },
  githubUrl: {
    flag: 'github-url',
    env: 'DOCS_GITHUB_URL',
    group: 'signIn',
    help: 'GitHub Enterprise Server URL (default https://github.com)',
    parse: secureUrl(isLoopbackHost),
  },
  signInRateLimit: {
    flag: 'sign-in-rate-limit',
    env: 'DOCS_SIGN_IN_RATE_LIMIT',
    group: 'signIn',
    help: 'sign-in and token requests a minute per IP',
    default: '30',
    parse: wholeNumber(1, 1_000_000),
  },

  // Custom domains
  dnsResolver: {
    flag: 'dns-resolver',
    env: 'DOCS_DNS_RESOLVER',
    group: 'domains',
    help: 'DNS server for domain checks, ip or ip:port (default: the system resolvers)',
    parse: resolverAddress,
  },
  dnsTimeoutMs: {
    flag: 'dns-timeout',
    env: 'DOCS_DNS_TIMEOUT',
    group: 'domains',
    help: 'milliseconds a DNS lookup may take',
    default: '3000',
    parse: wholeNumber(50, 60_000),
  },
  domainRecheckSeconds: {
    flag: 'domain-recheck',
    env: 'DOCS_DOMAIN_RECHECK',
    group: 'domains',
    help: 'seconds between background checks of each custom domain; 0 turns them off',
    default: '3600',
    parse: wholeNumber(0, 30 * day),
  },
  domainGraceSeconds: {
    flag: 'domain-grace',
    env: 'DOCS_DOMAIN_GRACE',
    group: 'domains',
    help: 'seconds a domain keeps serving after its DNS records stop checking out',
    default: String(7 * day),
    parse: wholeNumber(0, year),
  },
  apexAddresses: {
    flag: 'apex-addresses',
    env: 'DOCS_APEX_ADDRESSES',
    group: 'domains',
    help: 'comma-separated IPv4/IPv6 addresses an apex domain points at with A/AAAA',
    parse: ipAddresses,
  },
  domainPendingDays: {
    flag: 'domain-pending-days',
    env: 'DOCS_DOMAIN_PENDING_DAYS',
    group: 'domains',
    help: 'days an unverified custom domain claim lives before it expires',
    default: '7',
    parse: wholeNumber(1, 365),
  },
  domainPendingLimit: {
    flag: 'domain-pending-limit',
    env: 'DOCS_DOMAIN_PENDING_LIMIT',
    group: 'domains',
    help: 'unverified custom domain claims one user may hold at once',
    default: '20',
    parse: wholeNumber(1, 100_000),
  },

  // Retention and garbage collection
  keepDeployments: {
    flag: 'keep-deployments',
    env: 'DOCS_KEEP_DEPLOYMENTS',
    group: 'retention',
    help: 'deployments kept per project among those that were live (rollback targets)',
    default: '10',
    parse: wholeNumber(1, 100_000),
  },
  keepAgeSeconds: {
    flag: 'keep-age',
    env: 'DOCS_KEEP_AGE',
    group: 'retention',
    help: 'seconds every deployment is kept, previews included; older previews expire',
    default: String(7 * day),
    parse: wholeNumber(0, 10 * year),
  },
  gcGraceSeconds: {
    flag: 'gc-grace',
    env: 'DOCS_GC_GRACE',
    group: 'retention',
    help: 'seconds an unreferenced blob is kept before garbage collection deletes it',
    default: '3600',
    parse: wholeNumber(1, year),
  },
  insightsKeepDays: {
    flag: 'insights-keep-days',
    env: 'DOCS_INSIGHTS_KEEP_DAYS',
    group: 'retention',
    help: 'days raw reader events are kept; the daily counts of insights stay with the project',
    default: '30',
    parse: wholeNumber(1, 3650),
  },
  gcIntervalSeconds: {
    flag: 'gc-interval',
    env: 'DOCS_GC_INTERVAL',
    group: 'retention',
    help: 'seconds between garbage collections; 0 turns the periodic run off',
    default: '3600',
    parse: wholeNumber(0, year),
  },

  // Git-connected deploys
  githubAppId: {
    flag: 'github-app-id',
    env: 'DOCS_GITHUB_APP_ID',
    group: 'git',
    help: 'GitHub App id (Git-connected deploys from GitHub)',
    parse: appId,
  },
  githubAppPrivateKey: {
    flag: 'github-app-private-key',
    env: 'DOCS_GITHUB_APP_PRIVATE_KEY',
    group: 'git',
    help: "the GitHub App's private key: PEM text or the path of a .pem file",
    parse: pemOrFile,
  },
  githubWebhookSecret: {
    flag: 'github-webhook-secret',
    env: 'DOCS_GITHUB_WEBHOOK_SECRET',
    group: 'git',
    help: "the GitHub App's webhook secret",
    parse: secret(),
  },
  githubApiUrl: {
    flag: 'github-api-url',
    env: 'DOCS_GITHUB_API_URL',
    group: 'git',
    help: 'GitHub REST API address (GitHub Enterprise: https://HOST/api/v3)',
    default: 'https://api.github.com',
    parse: httpUrl,
  },
  gitlabToken: {
    flag: 'gitlab-token',
    env: 'DOCS_GITLAB_TOKEN',
    group: 'git',
    help: 'token of a GitLab bot account (read_repository, api): private repositories and commit statuses',
    parse: secret(),
  },
  gitlabApiUrl: {
    flag: 'gitlab-api-url',
    env: 'DOCS_GITLAB_API_URL',
    group: 'git',
    help: 'GitLab REST API address (self-managed: https://HOST/api/v4)',
    default: 'https://gitlab.com/api/v4',
    parse: httpUrl,
  },
  giteaToken: {
    flag: 'gitea-token',
    env: 'DOCS_GITEA_TOKEN',
    group: 'git',
    help: 'token of a Gitea/Forgejo bot account: private repositories and commit statuses',
    parse: secret(),
  },
  giteaApiUrl: {
    flag: 'gitea-api-url',
    env: 'DOCS_GITEA_API_URL',
    group: 'git',
    help: 'Gitea/Forgejo API address, https://HOST/api/v1 (needed with --gitea-token)',
    parse: httpUrl,
  },
  gitWebhookKey: {
    flag: 'git-webhook-key',
    env: 'DOCS_GIT_WEBHOOK_KEY',
    group: 'git',
    help: 'secret (32+ characters) GitLab/Gitea webhook secrets derive from (default: one made once, kept in the database)',
    parse: secret(32, 'characters of random text'),
  },
  gitWebhookMaxBytes: {
    flag: 'git-webhook-max-bytes',
    env: 'DOCS_GIT_WEBHOOK_MAX_BYTES',
    group: 'git',
    help: 'largest webhook delivery accepted',
    default: String(4 * 1024 * 1024),
    parse: wholeNumber(1024, 100 * 1024 * 1024),
  },
  gitFetchTimeout: {
    flag: 'git-fetch-timeout',
    env: 'DOCS_GIT_FETCH_TIMEOUT',
    group: 'git',
    help: 'seconds one git fetch of a pushed commit may take',
    default: '120',
    parse: wholeNumber(1, 3600),
  },
  gitMaxFetchBytes: {
    flag: 'git-max-fetch-bytes',
    env: 'DOCS_GIT_MAX_FETCH_BYTES',
    group: 'git',
    help: 'largest pack one git fetch of a pushed commit may download',
    default: String(1024 ** 3),
    parse: wholeNumber(1024, 2 ** 40),
  },
  gitMaxTreeEntries: {
    flag: 'git-max-tree-entries',
    env: 'DOCS_GIT_MAX_TREE_ENTRIES',
    group: 'git',
    help: 'most entries the docs folder of a pushed commit may list (ignored ones included)',
    default: '200000',
    parse: wholeNumber(1, 10_000_000),
  },
  gitAllowHosts: {
    flag: 'git-allow-hosts',
    env: 'DOCS_GIT_ALLOW_HOSTS',
    group: 'git',
    help: "hosts (host or host:port, comma-separated; * for any) repositories may be on besides the providers' own; read without credentials",
    parse: gitHosts,
  },
  gitAllowPrivateAddresses: {
    flag: 'git-allow-private-addresses',
    env: 'DOCS_GIT_ALLOW_PRIVATE_ADDRESSES',
    group: 'git',
    help: 'true to let git fetches reach loopback, private and link-local addresses',
    default: 'false',
    parse: trueOrFalse,
  },
} as const satisfies Record<string, SettingSpec<unknown>>

export type SettingName = keyof typeof settings

export const settingNames = Object.keys(settings) as SettingName[]

/** A setting's parsed value: always there when it has a default, else `undefined` while unset. */
type ValueOf<Spec> = Spec extends { parse: Parser<infer T> }
  ? Spec extends { default: string | DerivedDefault }
    ? T
    : T | undefined
  : never

/** The parsed value of every setting, typed by the table. */
export type SettingValues = { -readonly [Name in SettingName]: ValueOf<(typeof settings)[Name]> }
