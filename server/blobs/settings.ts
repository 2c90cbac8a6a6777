/**
 * Blob-store settings: the local folder (default) or an S3-compatible bucket (AWS S3, Cloudflare R2,
 * MinIO, Garage) chosen by `--blob-store s3://bucket/prefix`, with its endpoint, region, path-style and
 * credentials, and the size of the local read cache that keeps hot files off S3. They join the
 * server's settings table (server/config.ts), so each is a flag and an environment variable.
 */
import { ConfigError } from '../config-error.js'

export interface S3BlobStoreConfig {
  kind: 's3'
  bucket: string
  /** Keys start with `<prefix>/`; empty: at the bucket's root. */
  prefix: string
  /** `https://…` of an S3-compatible service; undefined: AWS S3 for `region`. */
  endpoint: string | undefined
  region: string
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key` (MinIO, Garage, most self-hosted ones). */
  forcePathStyle: boolean
  /** undefined: the AWS SDK's own chain (AWS_ACCESS_KEY_ID…, shared files, instance roles). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined
}

export type BlobStoreConfig = { kind: 'filesystem' } | S3BlobStoreConfig

export const blobSettings = {
  blobStore: {
    flag: 'blob-store',
    env: 'DOCS_BLOB_STORE',
    description: 's3://bucket/prefix to keep blobs in an S3-compatible bucket (unset: the data dir)',
    default: undefined,
  },
  s3Endpoint: {
    flag: 's3-endpoint',
    env: 'DOCS_S3_ENDPOINT',
    description: 'URL of an S3-compatible service (unset: AWS S3)',
    default: undefined,
  },
  s3Region: { flag: 's3-region', env: 'DOCS_S3_REGION', description: 'S3 region', default: 'us-east-1' },
  s3ForcePathStyle: {
    flag: 's3-force-path-style',
    env: 'DOCS_S3_FORCE_PATH_STYLE',
    description: 'true: bucket in the path, not the host name (MinIO, Garage)',
    default: 'false',
  },
  s3AccessKeyId: {
    flag: 's3-access-key-id',
    env: 'DOCS_S3_ACCESS_KEY_ID',
    description: 'S3 access key id (unset: the AWS SDK credential chain)',
    default: undefined,
  },
  s3SecretAccessKey: {
    flag: 's3-secret-access-key',
    env: 'DOCS_S3_SECRET_ACCESS_KEY',
    description: 'S3 secret access key; prefer the environment variable',
    default: undefined,
  },
  blobCacheBytes: {
    flag: 'blob-cache-bytes',
    env: 'DOCS_BLOB_CACHE_BYTES',
    description: 'bytes of S3 blobs kept on local disk for serving (0: none)',
    default: String(1024 ** 3),
  },
  minFreeDiskMb: {
    flag: 'min-free-disk',
    env: 'DOCS_MIN_FREE_DISK',
    description:
      "MB the data dir's disk must have free at start; with less the server starts read-only (serves sites, refuses changes)",
    default: '64',
  },
} as const

export type BlobSettingName = keyof typeof blobSettings

const where = (name: BlobSettingName): string => `--${blobSettings[name].flag} / ${blobSettings[name].env}`

/** Reads and checks the blob-store settings; `raw` gives a setting's flag, env or default value. */
export function readBlobConfig(raw: (name: BlobSettingName) => string | undefined): {
  blobStore: BlobStoreConfig
  blobCacheBytes: number
  minFreeDiskMb: number
} {
  const cacheText = raw('blobCacheBytes')?.trim() ?? ''
  if (!/^\d+$/.test(cacheText) || Number(cacheText) > 2 ** 50)
    throw new ConfigError(`${where('blobCacheBytes')}: expected a whole number of bytes, got "${cacheText}"`)
  const blobCacheBytes = Number(cacheText)
  const freeText = raw('minFreeDiskMb')?.trim() ?? ''
  if (!/^\d+$/.test(freeText) || Number(freeText) > 2 ** 40)
    throw new ConfigError(`${where('minFreeDiskMb')}: expected a whole number of MB, got "${freeText}"`)
  const minFreeDiskMb = Number(freeText)
  const location = raw('blobStore')?.trim()
  if (!location) return { blobStore: { kind: 'filesystem' }, blobCacheBytes, minFreeDiskMb }
  // Bucket names: 3–63 of a-z 0-9 . - (S3's rules); the prefix: path segments without . or .. alone.
  const parsed = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(location)
  const prefix = (parsed?.[2] ?? '').replace(/\/+$/, '')
  if (
    !parsed ||
    (prefix !== '' && !/^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/.test(prefix))
  )
    throw new ConfigError(
      `${where('blobStore')}: expected s3://bucket or s3://bucket/prefix (bucket: 3-63 of a-z 0-9 . -; prefix: letters, digits, . _ - and /), got "${location}"`,
    )
  const endpoint = raw('s3Endpoint')?.trim() || undefined
  if (endpoint !== undefined && !URL.canParse(endpoint))
    throw new ConfigError(
      `${where('s3Endpoint')}: expected a URL like https://s3.example.com, got "${endpoint}"`,
    )
  if (endpoint !== undefined && !/^https?:$/.test(new URL(endpoint).protocol))
    throw new ConfigError(`${where('s3Endpoint')}: expected an http:// or https:// URL, got "${endpoint}"`)
  const pathStyle = (raw('s3ForcePathStyle') ?? 'false').trim().toLowerCase()
  if (pathStyle !== 'true' && pathStyle !== 'false')
    throw new ConfigError(`${where('s3ForcePathStyle')}: expected true or false, got "${pathStyle}"`)
  const accessKeyId = raw('s3AccessKeyId')?.trim() || undefined
  const secretAccessKey = raw('s3SecretAccessKey')?.trim() || undefined
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
    throw new ConfigError(
      `${where('s3AccessKeyId')} and ${where('s3SecretAccessKey')}: set both, or neither to use the AWS SDK credential chain`,
    )
  const region = raw('s3Region')?.trim() || 'us-east-1'
  return {
    blobStore: {
      kind: 's3',
      bucket: parsed[1] ?? '',
      prefix,
      endpoint,
      region,
      forcePathStyle: pathStyle === 'true',
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    },
    blobCacheBytes,
    minFreeDiskMb,
  }
}
