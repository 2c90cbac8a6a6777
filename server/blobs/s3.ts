/**
 * The S3 BlobStore, for AWS S3, Cloudflare R2, MinIO, Garage or any S3-compatible service:
 * `<prefix>/objects/aa/bbbb…` by sha256. Bytes that arrive as a stream are spooled to a local temp
 * file while hashed, so nothing whole is held in memory and a blob gets its name only once its hash
 * and size are checked; the upload is multipart past 8 MB (@aws-sdk/lib-storage). A blob is written
 * once: an existing key is never written again. Chunks of large files are objects under
 * `<prefix>/chunks/<upload key>/<offset>`, so any replica can take the next one. Reads go through a
 * local read cache (LRU by bytes) so that hot serving does not reach S3 per request.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { LRUCache } from 'lru-cache'
import { BlobReadCache } from './read-cache.js'
import type { S3BlobStoreConfig } from './settings.js'
import type { BlobStore, ChunkResult, PutResult, StoredBlob } from './store.js'
import { isSha256, reuseRefreshMs } from './store.js'

/** Parts of a multipart upload; S3 takes 5 MB at least (except the last). */
const partSize = 8 * 1024 * 1024
const uploadKeyPattern = /^[A-Za-z0-9_-]{1,200}$/

/** A conditional write refused because the key exists (or another write of it is under way). */
const isAlreadyStored = (error: unknown): boolean =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 412 || error.$metadata.httpStatusCode === 409)

/** An absent key; an absent bucket (NoSuchBucket) is a misconfiguration, thrown as such. */
const isMissing = (error: unknown): boolean =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound')

export function createS3Client(config: S3BlobStoreConfig): S3Client {
  return new S3Client({
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // Content is verified by its sha256 here; the SDK's default CRC32 headers are not understood by
    // every S3-compatible service (s3rver, older MinIO and Garage).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
}

export class S3BlobStore implements BlobStore {
  readonly client: S3Client
  readonly cache: BlobReadCache
  readonly #bucket: string
  readonly #prefix: string
  readonly #spool: string
  /**
   * Blobs this process saw in the bucket lately, with their LastModified. One younger than half the
   * refresh window can be neither deleted by garbage collection (its grace is longer) nor in need of
   * a refresh, so a build storing its unchanged pages again asks the bucket nothing.
   */
  readonly #fresh = new LRUCache<string, number>({ max: 200_000 })

  /** `localRoot` holds the read cache and the temp files of uploads in progress. */
  constructor(
    readonly config: S3BlobStoreConfig,
    localRoot: string,
    cacheBytes: number,
  ) {
    this.client = createS3Client(config)
    this.#bucket = config.bucket
    this.#prefix = config.prefix ? `${config.prefix}/` : ''
    this.#spool = join(localRoot, 'tmp')
    this.cache = new BlobReadCache(join(localRoot, 'cache'), cacheBytes)
  }

  keyOf(sha256: string): string {
    if (!isSha256(sha256)) throw new Error(`not a sha256: ${sha256}`)
    return `${this.#prefix}objects/${sha256.slice(0, 2)}/${sha256.slice(2)}`
  }

  async has(sha256: string): Promise<boolean> {
    if (!isSha256(sha256)) return false
    if (this.#isFresh(sha256)) return true
    // The read cache is not asked: another replica's garbage collection may have deleted a cached blob.
    const head = await this.#head(this.keyOf(sha256))
    if (head) this.#fresh.set(sha256, head.LastModified?.getTime() ?? 0)
    return head !== undefined
  }

  async touch(sha256: string): Promise<boolean> {
    if (!isSha256(sha256)) return false
    if (this.#isFresh(sha256)) return true
    const head = await this.#head(this.keyOf(sha256))
    if (!head) return false
    const modifiedAt = head.LastModified?.getTime() ?? 0
    this.#fresh.set(sha256, modifiedAt)
    if (modifiedAt < Date.now() - reuseRefreshMs) {
      // Copying an object onto itself with new metadata is S3's way to refresh LastModified.
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.#bucket,
          Key: this.keyOf(sha256),
          CopySource: `${this.#bucket}/${encodeURI(this.keyOf(sha256))}`,
          MetadataDirective: 'REPLACE',
          Metadata: { reused: new Date().toISOString() },
        }),
      )
      this.#fresh.set(sha256, Date.now())
    }
    return true
  }

  async get(sha256: string): Promise<Buffer | undefined> {
    if (!isSha256(sha256)) return undefined
    const cached = await this.cache.get(sha256)
    if (cached) return cached
    const body = await this.#object(this.keyOf(sha256))
    if (!body) return undefined
    const bytes = Buffer.from(await body.transformToByteArray())
    await this.cache.set(sha256, bytes)
    return bytes
  }

  async stream(sha256: string): Promise<Readable | undefined> {
    if (!isSha256(sha256)) return undefined
    const cached = this.cache.stream(sha256)
    if (cached) return cached
    const size = await this.#size(this.keyOf(sha256))
    if (size === undefined) return undefined
    const body = (await this.#object(this.keyOf(sha256))) as unknown as Readable | undefined
    if (!body || !this.cache.accepts(size)) return body
    // Small enough to keep: streamed into the cache once, then every later read is local.
    await this.cache.fill(sha256, body, size)
    return this.cache.stream(sha256)
  }

  async put(bytes: Uint8Array): Promise<string> {
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    if (this.#isFresh(sha256)) return sha256
    // One request whether or not the blob exists: If-None-Match refuses to overwrite (write once), and
    // Content-MD5 makes the bucket check the bytes it received. A refusal means it is there: touch it.
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.#bucket,
          Key: this.keyOf(sha256),
          Body: bytes,
          ContentLength: bytes.length,
          ContentMD5: createHash('md5').update(bytes).digest('base64'),
          IfNoneMatch: '*',
        }),
      )
    } catch (error) {
      if (!isAlreadyStored(error) || !(await this.touch(sha256))) throw error
      return sha256
    }
    this.#fresh.set(sha256, Date.now())
    return sha256
  }

  async putStream(
    source: Readable,
    options: { maxBytes: number; expectedSha256?: string },
  ): Promise<PutResult> {
    const temp = await this.#tempPath()
    try {
      const spooled = await spool(source, temp, options.maxBytes)
      if (spooled.tooLarge) return { ok: false, reason: 'too-large', size: spooled.size }
      const { sha256, size } = spooled
      if (options.expectedSha256 !== undefined && sha256 !== options.expectedSha256) {
        return { ok: false, reason: 'hash-mismatch', sha256, size }
      }
      await this.#upload(temp, spooled)
      return { ok: true, sha256, size }
    } finally {
      await rm(temp, { force: true })
    }
  }

  async appendChunk(uploadKey: string, offset: number, bytes: Uint8Array): Promise<ChunkResult> {
    const chunks = await this.#chunks(uploadKey)
    const held = chunks.reduce((total, chunk) => total + chunk.size, 0)
    if (offset !== held) return { ok: false, expectedOffset: held }
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: `${this.#chunkFolder(uploadKey)}${String(offset).padStart(15, '0')}`,
        Body: bytes,
        ContentLength: bytes.length,
      }),
    )
    return { ok: true, received: held + bytes.length }
  }

  async completeChunks(uploadKey: string, sha256: string): Promise<boolean> {
    const chunks = await this.#chunks(uploadKey)
    const temp = await this.#tempPath()
    try {
      const client = this.client
      const bucket = this.#bucket
      async function* bytes() {
        for (const chunk of chunks) {
          const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: chunk.key }))
          if (object.Body) yield* object.Body as unknown as AsyncIterable<Buffer>
        }
      }
      const spooled = await spool(bytes(), temp, Number.POSITIVE_INFINITY)
      if (spooled.sha256 !== sha256) return false
      await this.#upload(temp, spooled)
      return true
    } finally {
      await rm(temp, { force: true })
      await this.#deleteKeys(chunks.map((chunk) => chunk.key))
    }
  }

  async sweepUploads(options: {
    modifiedBefore: number
    uploadKeyPrefixes: readonly string[]
  }): Promise<number> {
    const expired: string[] = []
    for await (const object of this.#list(`${this.#prefix}chunks/`)) {
      const uploadKey = object.key.slice(`${this.#prefix}chunks/`.length).split('/')[0] ?? ''
      if (
        options.uploadKeyPrefixes.some((prefix) => uploadKey.startsWith(prefix)) ||
        object.modifiedAt < options.modifiedBefore
      )
        expired.push(object.key)
    }
    await this.#deleteKeys(expired)
    let spoolFiles = 0
    for (const name of await readdir(this.#spool).catch(() => [] as string[])) {
      const path = join(this.#spool, name)
      const old = await stat(path).then(
        (info) => info.mtimeMs < options.modifiedBefore,
        () => false,
      )
      if (!old) continue
      await rm(path, { force: true })
      spoolFiles++
    }
    return expired.length + spoolFiles
  }

  async *list(): AsyncIterable<StoredBlob> {
    const folder = `${this.#prefix}objects/`
    for await (const object of this.#list(folder)) {
      const sha256 = object.key.slice(folder.length).replace('/', '')
      if (isSha256(sha256)) yield { sha256, size: object.size, modifiedAt: object.modifiedAt }
    }
  }

  async delete(sha256s: readonly string[]): Promise<void> {
    for (const sha256 of sha256s) this.forget(sha256)
    await this.#deleteKeys(sha256s.filter(isSha256).map((sha256) => this.keyOf(sha256)))
  }

  /** Throws, saying what to fix, when the bucket is missing, refused or unreachable. */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.#bucket }))
    } catch (error) {
      const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined
      if (status === 404) throw new Error(`the bucket "${this.#bucket}" does not exist: create it first`)
      if (status === 403)
        throw new Error(`access to the bucket "${this.#bucket}" is denied: check the S3 keys and its policy`)
      if (status === 301)
        throw new Error(`the bucket "${this.#bucket}" is in another region than --s3-region`)
      throw error
    }
  }

  close(): void {
    this.client.destroy()
  }

  /** Drops what this process remembers of a blob (its cached bytes, that it is fresh). */
  forget(sha256: string): void {
    this.cache.delete(sha256)
    this.#fresh.delete(sha256)
  }

  #isFresh(sha256: string): boolean {
    const modifiedAt = this.#fresh.get(sha256)
    return modifiedAt !== undefined && modifiedAt > Date.now() - reuseRefreshMs / 2
  }

  /** Uploads a verified spool file under its sha256 unless the bucket has it already. */
  async #upload(path: string, spooled: { sha256: string; md5: string; size: number }): Promise<void> {
    const { sha256, size } = spooled
    if (await this.touch(sha256)) return
    if (size <= partSize) {
      // One request; Content-MD5 makes the bucket refuse bytes that differ from what was hashed here.
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.#bucket,
          Key: this.keyOf(sha256),
          Body: createReadStream(path),
          ContentLength: size,
          ContentMD5: spooled.md5,
        }),
      )
    } else {
      const upload = new Upload({
        client: this.client,
        params: { Bucket: this.#bucket, Key: this.keyOf(sha256), Body: createReadStream(path) },
        partSize,
        queueSize: 2,
        leavePartsOnError: false,
      })
      await upload.done()
      await this.#verify(sha256, size)
    }
    this.#fresh.set(sha256, Date.now())
  }

  /** The stored object has the size its bytes had here; a short write is deleted, never kept. */
  async #verify(sha256: string, size: number): Promise<void> {
    const stored = await this.#size(this.keyOf(sha256))
    if (stored === size) return
    if (stored !== undefined) await this.#deleteKeys([this.keyOf(sha256)])
    throw new Error(`blob ${sha256} stored with ${stored ?? 'no'} bytes, expected ${size}`)
  }

  async #size(key: string): Promise<number | undefined> {
    const head = await this.#head(key)
    return head ? (head.ContentLength ?? 0) : undefined
  }

  async #head(key: string) {
    try {
      return await this.client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }))
    } catch (error) {
      if (isMissing(error)) return undefined
      throw error
    }
  }

  async #object(key: string) {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: key }))
      return object.Body
    } catch (error) {
      if (isMissing(error)) return undefined
      throw error
    }
  }

  #chunkFolder(uploadKey: string): string {
    if (!uploadKeyPattern.test(uploadKey)) throw new Error(`bad upload key: ${uploadKey}`)
    return `${this.#prefix}chunks/${uploadKey}/`
  }

  async #chunks(uploadKey: string): Promise<{ key: string; size: number }[]> {
    const chunks: { key: string; size: number }[] = []
    for await (const object of this.#list(this.#chunkFolder(uploadKey))) chunks.push(object)
    // Keys end in a zero-padded offset, and S3 lists keys in order.
    return chunks.sort((a, b) => (a.key < b.key ? -1 : 1))
  }

  async *#list(prefix: string): AsyncIterable<{ key: string; size: number; modifiedAt: number }> {
    let token: string | undefined
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: prefix, ContinuationToken: token }),
      )
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue
        yield { key: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified?.getTime() ?? 0 }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
  }

  async #deleteKeys(keys: readonly string[]): Promise<void> {
    // DeleteObjects takes at most 1,000 keys a request.
    for (let start = 0; start < keys.length; start += 1000) {
      const batch = keys.slice(start, start + 1000)
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.#bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      )
    }
  }

  async #tempPath(): Promise<string> {
    await mkdir(this.#spool, { recursive: true, mode: 0o700 })
    return join(this.#spool, `${Date.now()}-${randomBytes(8).toString('hex')}`)
  }
}

/** Writes chunks to `path` while hashing them; past `maxBytes` keeps draining but writes nothing. */
async function spool(
  source: AsyncIterable<Buffer>,
  path: string,
  maxBytes: number,
): Promise<{ tooLarge: boolean; sha256: string; md5: string; size: number }> {
  const hash = createHash('sha256')
  const md5 = createHash('md5')
  let size = 0
  let tooLarge = false
  await pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        size += chunk.length
        if (size > maxBytes) {
          tooLarge = true
          continue
        }
        hash.update(chunk)
        md5.update(chunk)
        yield chunk
      }
    },
    createWriteStream(path),
  )
  return { tooLarge, sha256: hash.digest('hex'), md5: md5.digest('base64'), size }
}
