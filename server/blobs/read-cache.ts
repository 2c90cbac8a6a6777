/**
 * A replica's local copy of hot blobs from a remote store, LRU by bytes, in a folder of its data dir.
 * Blobs never change under their sha256, so a cached copy is never stale; the folder is emptied at
 * start (the LRU order lives in memory), and an evicted file is deleted.
 */
import { randomBytes } from 'node:crypto'
import { createReadStream, existsSync, mkdirSync, rmSync } from 'node:fs'
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { LRUCache } from 'lru-cache'

export class BlobReadCache {
  readonly #entries: LRUCache<string, number> | undefined
  readonly #folder: string

  constructor(
    folder: string,
    readonly maxBytes: number,
  ) {
    this.#folder = folder
    rmSync(folder, { recursive: true, force: true })
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    this.#entries =
      maxBytes > 0
        ? new LRUCache<string, number>({
            maxSize: maxBytes,
            sizeCalculation: (size) => Math.max(1, size),
            dispose: (_size, sha256) => void rm(this.#path(sha256), { force: true }),
          })
        : undefined
  }

  /** Whether a blob of this size is worth a place: at most an eighth of the cache, so one never flushes it. */
  accepts(size: number): boolean {
    return this.#entries !== undefined && size <= this.maxBytes / 8
  }

  get bytes(): number {
    return this.#entries?.calculatedSize ?? 0
  }

  async get(sha256: string): Promise<Buffer | undefined> {
    if (this.#entries?.get(sha256) === undefined) return undefined
    return readFile(this.#path(sha256)).catch(() => {
      this.#entries?.delete(sha256)
      return undefined
    })
  }

  stream(sha256: string): Readable | undefined {
    if (this.#entries?.get(sha256) === undefined) return undefined
    if (!existsSync(this.#path(sha256))) {
      this.#entries.delete(sha256)
      return undefined
    }
    return createReadStream(this.#path(sha256))
  }

  async set(sha256: string, bytes: Uint8Array): Promise<void> {
    if (!this.accepts(bytes.length) || this.#entries?.has(sha256)) return
    const temp = join(this.#folder, `.${randomBytes(8).toString('hex')}`)
    await writeFile(temp, bytes)
    await rename(temp, this.#path(sha256))
    this.#entries?.set(sha256, bytes.length)
  }

  /** Forget a blob deleted from the store (garbage collection). */
  delete(sha256: string): void {
    this.#entries?.delete(sha256)
  }

  #path(sha256: string): string {
    return join(this.#folder, sha256)
  }
}
