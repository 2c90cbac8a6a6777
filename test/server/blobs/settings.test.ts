import assert from 'node:assert/strict'
import { test } from 'node:test'
import { loadConfig } from '../../../server/config.js'
import { ConfigError } from '../../../server/settings/errors.js'

test('the local folder is the default blob store; --blob-store s3://bucket/prefix picks S3', () => {
  assert.deepEqual(loadConfig([], {}).config.blobStore, { kind: 'filesystem' })
  const { config } = loadConfig(
    [
      '--blob-store',
      's3://docs-blobs/prod/site/',
      '--s3-endpoint',
      'http://127.0.0.1:9000',
      '--s3-force-path-style',
      'true',
    ],
    { DOCS_S3_ACCESS_KEY_ID: 'minio', DOCS_S3_SECRET_ACCESS_KEY: 'minio-secret', DOCS_S3_REGION: 'auto' },
  )
  assert.deepEqual(config.blobStore, {
    kind: 's3',
    bucket: 'docs-blobs',
    prefix: 'prod/site',
    endpoint: 'http://127.0.0.1:9000',
    region: 'auto',
    forcePathStyle: true,
    credentials: { accessKeyId: 'minio', secretAccessKey: 'minio-secret' },
  })
  const aws = loadConfig([], { DOCS_BLOB_STORE: 's3://docs-blobs' }).config.blobStore
  assert.deepEqual(aws, {
    kind: 's3',
    bucket: 'docs-blobs',
    prefix: '',
    endpoint: undefined,
    region: 'us-east-1',
    forcePathStyle: false,
    credentials: undefined,
  })
  assert.equal(loadConfig([], {}).config.blobCacheBytes, 1024 ** 3)
})

test('bad blob-store settings name the setting and what to write', () => {
  for (const [args, env, message] of [
    [
      ['--blob-store', 'gs://bucket'],
      {},
      /--blob-store \/ DOCS_BLOB_STORE: expected s3:\/\/bucket or s3:\/\/bucket\/prefix/,
    ],
    [['--blob-store', 's3://Bad_Bucket'], {}, /expected s3:\/\/bucket/],
    [['--blob-store', 's3://bucket/../up'], {}, /expected s3:\/\/bucket/],
    [
      ['--blob-store', 's3://bucket', '--s3-endpoint', 'minio:9000'],
      {},
      /--s3-endpoint \/ DOCS_S3_ENDPOINT: expected/,
    ],
    [['--blob-store', 's3://bucket', '--s3-force-path-style', 'yes'], {}, /expected true or false/],
    [['--blob-store', 's3://bucket'], { DOCS_S3_ACCESS_KEY_ID: 'only-the-id' }, /set both, or neither/],
    [
      ['--blob-cache-bytes', '1GB'],
      {},
      /--blob-cache-bytes \/ DOCS_BLOB_CACHE_BYTES: expected a whole number/,
    ],
  ] as const) {
    assert.throws(
      () => loadConfig(args, env),
      (error: unknown) => error instanceof ConfigError && message.test(error.message),
      String(args),
    )
  }
})

test('--min-free-disk is 64 MB unless set; 0 turns the check off; other values are refused', () => {
  assert.equal(loadConfig([], {}).config.minFreeDiskMb, 64)
  assert.equal(loadConfig(['--min-free-disk', '0'], {}).config.minFreeDiskMb, 0)
  assert.equal(loadConfig([], { DOCS_MIN_FREE_DISK: '1024' }).config.minFreeDiskMb, 1024)
  assert.throws(
    () => loadConfig(['--min-free-disk', '1.5'], {}),
    (error: Error) =>
      error instanceof ConfigError &&
      error.message === '--min-free-disk / DOCS_MIN_FREE_DISK: expected a whole number of MB, got "1.5"',
  )
})
