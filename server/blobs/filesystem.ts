/**
 * The filesystem BlobStore: `<root>/aa/bbbb…` by sha256. A write goes to a temp file in the same
 * folder tree, is fsynced, then renamed into place, so a blob is either whole or absent.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, existsSync } from 'node:fs'
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { BlobStore, ChunkResult, PutResult, StoredBlob } from './store.js'
import { isSha256, reuseRefreshMs } from './store.js'

export class FilesystemBlobStore implements BlobStore {
  readonly #objects: string
  readonly #temp: string
  readonly #chunks: string

  constructor(readonly root: string) {
    this.#objects = join(root, 'objects')
    this.#temp = join(root, 'tmp')
    this.#chunks = join(root, 'chunks')
  }

  pathOf(sha256: string): string {
    if (!isSha256(sha256)) throw new Error(`not a sha256: ${sha256}`)
    return join(this.#objects, sha256.slice(0, 2), sha256.slice(2))
  }

  async has(sha256: string): Promise<boolean> {
    return isSha256(sha256) && existsSync(this.pathOf(sha256))
  }

  async touch(sha256: string): Promise<boolean> {
    if (!isSha256(sha256)) return false
    const info = await stat(this.pathOf(sha256)).catch(() => undefined)
    if (!info) return false
    if (info.mtimeMs < Date.now() - reuseRefreshMs) {
      const now = new Date()
      await utimes(this.pathOf(sha256), now, now).catch(() => undefined)
    }
    return true
  }

  async get(sha256: string): Promise<Buffer | undefined> {
    if (!isSha256(sha256)) return undefined
    try {
      return await readFile(this.pathOf(sha256))
    } catch {
      return undefined
    }
  }

  async stream(sha256: string): Promise<Readable | undefined> {
    if (!isSha256(sha256) || !existsSync(this.pathOf(sha256))) return undefined
    return createReadStream(this.pathOf(sha256))
  }

  async put(bytes: Uint8Array): Promise<string> {
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    if (await this.touch(sha256)) return sha256
    const temp = await this.#tempPath()
    const handle = await open(temp, 'w')
    try {
      await handle.writeFile(bytes)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await this.#moveIntoPlace(temp, sha256)
    return sha256
  }

  async putStream(
    source: Readable,
    options: { maxBytes: number; expectedSha256?: string },
  ): Promise<PutResult> {
    const temp = await this.#tempPath()
    const hash = createHash('sha256')
    let size = 0
    let tooLarge = false
    const sink = createWriteStream(temp)
    try {
      await pipeline(
        source,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            size += chunk.length
            if (size > options.maxBytes) {
              tooLarge = true
              // Drain the rest so the request body is consumed, but keep nothing of it.
              continue
            }
            hash.update(chunk)
            yield chunk
          }
        },
        sink,
      )
      if (tooLarge) return { ok: false, reason: 'too-large', size }
      const sha256 = hash.digest('hex')
      if (options.expectedSha256 !== undefined && sha256 !== options.expectedSha256) {
        return { ok: false, reason: 'hash-mismatch', sha256, size }
      }
      await this.#fsync(temp)
      await this.#moveIntoPlace(temp, sha256)
      return { ok: true, sha256, size }
    } finally {
      await rm(temp, { force: true })
    }
  }

  async appendChunk(uploadKey: string, offset: number, bytes: Uint8Array): Promise<ChunkResult> {
    await mkdir(this.#chunks, { recursive: true })
    const path = this.#chunkPath(uploadKey)
    const held = await stat(path).then(
      (info) => info.size,
      () => 0,
    )
    if (offset !== held) return { ok: false, expectedOffset: held }
    const handle = await open(path, 'a')
    try {
      await handle.write(bytes)
      await handle.sync()
    } finally {
      await handle.close()
    }
    return { ok: true, received: held + bytes.length }
  }

  async completeChunks(uploadKey: string, sha256: string): Promise<boolean> {
    const path = this.#chunkPath(uploadKey)
    try {
      const hash = createHash('sha256')
      await pipeline(createReadStream(path), async (chunks: AsyncIterable<Buffer>) => {
        for await (const chunk of chunks) hash.update(chunk)
      })
      if (hash.digest('hex') !== sha256) return false
      if (await this.touch(sha256)) return true
      await this.#moveIntoPlace(path, sha256)
      return true
    } finally {
      await rm(path, { force: true })
    }
  }

  async sweepUploads(options: {
    modifiedBefore: number
    uploadKeyPrefixes: readonly string[]
  }): Promise<number> {
    let deleted = 0
    for (const folder of [this.#chunks, this.#temp]) {
      const names = await readdir(folder).catch(() => [] as string[])
      for (const name of names) {
        const path = join(folder, name)
        const expired =
          (folder === this.#chunks && options.uploadKeyPrefixes.some((prefix) => name.startsWith(prefix))) ||
          (await stat(path).then(
            (info) => info.mtimeMs < options.modifiedBefore,
            () => false,
          ))
        if (!expired) continue
        await rm(path, { force: true })
        deleted++
      }
    }
    return deleted
  }

  async *list(): AsyncIterable<StoredBlob> {
    for (const folder of await readdir(this.#objects).catch(() => [] as string[])) {
      for (const name of await readdir(join(this.#objects, folder)).catch(() => [] as string[])) {
        const sha256 = `${folder}${name}`
        if (!isSha256(sha256)) continue
        const info = await stat(join(this.#objects, folder, name)).catch(() => undefined)
        if (info) yield { sha256, size: info.size, modifiedAt: info.mtimeMs }
      }
    }
  }

  async delete(sha256s: readonly string[]): Promise<void> {
    for (const sha256 of sha256s) if (isSha256(sha256)) await rm(this.pathOf(sha256), { force: true })
  }

  async check(): Promise<void> {
    await mkdir(this.#objects, { recursive: true })
  }

  close(): void {}

  #chunkPath(uploadKey: string): string {
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(uploadKey)) throw new Error(`bad upload key: ${uploadKey}`)
    return join(this.#chunks, uploadKey)
  }

  async #tempPath(): Promise<string> {
    await mkdir(this.#temp, { recursive: true })
    return join(this.#temp, `${Date.now()}-${randomBytes(8).toString('hex')}`)
  }

  async #fsync(path: string): Promise<void> {
    const handle = await open(path, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  }

  async #moveIntoPlace(temp: string, sha256: string): Promise<void> {
    const target = this.pathOf(sha256)
    await mkdir(join(target, '..'), { recursive: true })
    await rename(temp, target)
  }
}
