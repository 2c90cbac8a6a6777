/**
 * The shape of the blob-store settings: the local folder (default) or an S3-compatible bucket (AWS S3,
 * Cloudflare R2, MinIO, Garage) chosen by `--blob-store s3://bucket/prefix`, with its endpoint, region,
 * path-style and credentials. Their flags, variables, defaults and checks are in the settings table
 * (server/settings/table.ts, rules.ts); server/config.ts fills this shape.
 */
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
