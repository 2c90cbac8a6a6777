/**
 * A real S3-protocol server (s3rver, from npm) started inside a test, on loopback and a free port, with
 * its objects in a temporary folder. Gives what a docs-server needs to use it: the settings as a
 * ServerConfig part (`blobStore`), as flags and as environment variables (for spawned replicas).
 *
 *     const s3 = await startS3Server(t)
 *     const app = await testApp(t, 'sqlite', { blobStore: s3.blobStore('site-a') })
 *     spawn(docsServer, [...s3.args('site-a')], { env: { ...process.env, ...s3.env('site-a') } })
 */
import crypto, { randomBytes } from 'node:crypto'
import { mkdtemp, rm, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import type { S3BlobStoreConfig } from '../../../server/blobs/settings.js'

export interface S3TestServer {
  /** `http://127.0.0.1:<port>` */
  endpoint: string
  /** A bucket made for this server (another one per call of `createBucket`). */
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  /** The blob-store part of a ServerConfig: this server, `bucket` (or `bucket` given) and `prefix`. */
  blobStore(prefix?: string, bucket?: string): S3BlobStoreConfig
  /** `docs-server` flags selecting this server. */
  args(prefix?: string, bucket?: string): string[]
  /** `docs-server` environment variables selecting this server. */
  env(prefix?: string, bucket?: string): Record<string, string>
  /** A client for looking inside, path-style and with checksums only where S3 needs them. */
  client(): S3Client
  createBucket(name?: string): Promise<string>
  /** Backdates an object's LastModified, as if it had been written at `when`. */
  backdate(bucket: string, key: string, when: Date): Promise<void>
  /** Objects under `prefix` in `bucket` and their total bytes. */
  usage(prefix?: string, bucket?: string): Promise<{ objects: number; bytes: number }>
  close(): Promise<void>
}

const accessKeyId = 'S3RVER'
const secretAccessKey = 'S3RVER'
const region = 'us-east-1'

/**
 * Starts s3rver for one test (`startS3Server(t)`) or a whole file (`startS3Server({ after })` with
 * node:test's `after`), closed and emptied afterwards.
 */
export async function startS3Server(t: {
  after: (fn: () => Promise<void>) => unknown
}): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory })
  allowSingleDes()
  serialiseDeletes(server)
  refreshOnSelfCopy(server)
  const address = await server.run()
  const endpoint = `http://127.0.0.1:${address.port}`
  const clients: S3Client[] = []
  const client = () => {
    const made = new S3Client({
      endpoint,
      region,
      forcePathStyle: true,
      credentials: { accessKeyId, secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
    clients.push(made)
    return made
  }
  const admin = client()
  const createBucket = async (name = `docs-${randomBytes(4).toString('hex')}`) => {
    await admin.send(new CreateBucketCommand({ Bucket: name }))
    return name
  }
  const bucket = await createBucket()
  const location = (prefix: string, inBucket: string) => `s3://${inBucket}${prefix ? `/${prefix}` : ''}`
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    for (const made of clients) made.destroy()
    await server.close()
    await rm(directory, { recursive: true, force: true })
  }
  t.after(close)
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    blobStore: (prefix = '', inBucket = bucket) => ({
      kind: 's3',
      bucket: inBucket,
      prefix,
      endpoint,
      region,
      forcePathStyle: true,
      credentials: { accessKeyId, secretAccessKey },
    }),
    args: (prefix = '', inBucket = bucket) => [
      '--blob-store',
      location(prefix, inBucket),
      '--s3-endpoint',
      endpoint,
      '--s3-region',
      region,
      '--s3-force-path-style',
      'true',
      '--s3-access-key-id',
      accessKeyId,
      '--s3-secret-access-key',
      secretAccessKey,
    ],
    env: (prefix = '', inBucket = bucket) => ({
      DOCS_BLOB_STORE: location(prefix, inBucket),
      DOCS_S3_ENDPOINT: endpoint,
      DOCS_S3_REGION: region,
      DOCS_S3_FORCE_PATH_STYLE: 'true',
      DOCS_S3_ACCESS_KEY_ID: accessKeyId,
      DOCS_S3_SECRET_ACCESS_KEY: secretAccessKey,
    }),
    client,
    createBucket,
    backdate: async (inBucket, key, when) => {
      await utimes(storeOf(server).getResourcePath(inBucket, key, 'object'), when, when)
    },
    usage: async (prefix = '', inBucket = bucket) => {
      let objects = 0
      let bytes = 0
      let token: string | undefined
      do {
        const page = await admin.send(
          new ListObjectsV2Command({
            Bucket: inBucket,
            Prefix: prefix ? `${prefix}/` : undefined,
            ContinuationToken: token,
          }),
        )
        for (const object of page.Contents ?? []) {
          objects++
          bytes += object.Size ?? 0
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
      return { objects, bytes }
    },
    close,
  }
}

/**
 * s3rver 3.7 deletes the keys of one DeleteObjects request in parallel, and the deletes race to remove
 * the folders they leave empty (a 500 InternalError; S3 itself has no folders). One at a time, then.
 */
function serialiseDeletes(server: S3rver): void {
  const store = storeOf(server)
  const deleteObject = store.deleteObject.bind(store)
  let queue: Promise<unknown> = Promise.resolve()
  store.deleteObject = (bucket, key) => {
    const deleted = queue.then(() => deleteObject(bucket, key))
    queue = deleted.catch(() => undefined)
    return deleted
  }
}

/**
 * S3 gives an object copied onto itself (with new metadata) a new LastModified; s3rver 3.7 keeps the
 * old one (it is the file's mtime). Do as S3 does: the blob stores refresh reused blobs that way.
 */
function refreshOnSelfCopy(server: S3rver): void {
  const store = storeOf(server)
  const copyObject = store.copyObject.bind(store)
  store.copyObject = async (srcBucket, srcKey, destBucket, destKey, metadata) => {
    const copied = await copyObject(srcBucket, srcKey, destBucket, destKey, metadata)
    if (srcBucket !== destBucket || srcKey !== destKey) return copied
    const now = new Date()
    await utimes(store.getResourcePath(destBucket, destKey, 'object'), now, now)
    return store.getMetadata(destBucket, destKey)
  }
}

/** s3rver's filesystem store: the parts of it this file adjusts. */
interface S3rverStore {
  deleteObject(bucket: string, key: string): Promise<void>
  copyObject(
    srcBucket: string,
    srcKey: string,
    destBucket: string,
    destKey: string,
    metadata: unknown,
  ): Promise<unknown>
  getMetadata(bucket: string, key: string): Promise<unknown>
  getResourcePath(bucket: string, key: string, resource: string): string
}

const storeOf = (server: S3rver): S3rverStore => (server as unknown as { store: S3rverStore }).store

/**
 * s3rver 3.7 encrypts ListObjectsV2 continuation tokens with single DES, which OpenSSL 3 no longer
 * offers, so every listing past one page failed with a 500. Triple DES with the key three times over
 * is the same cipher; only the name `des` is mapped, for this test process.
 */
function allowSingleDes(): void {
  const cryptoModule = crypto as unknown as Record<'createCipheriv' | 'createDecipheriv', unknown>
  for (const name of ['createCipheriv', 'createDecipheriv'] as const) {
    const original = crypto[name] as (algorithm: string, key: Buffer, iv: Buffer) => unknown
    if ((original as { desMapped?: true }).desMapped) continue
    const mapped = (algorithm: string, key: Buffer, iv: Buffer) =>
      algorithm === 'des' && key.length === 8
        ? original('des-ede3-cbc', Buffer.concat([key, key, key]), iv)
        : original(algorithm, key, iv)
    Object.assign(mapped, { desMapped: true })
    cryptoModule[name] = mapped
  }
}
