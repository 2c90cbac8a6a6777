/**
 * Content-addressed storage: every uploaded source file and every built site file is a blob named by
 * the sha256 of its bytes. The filesystem store (filesystem.ts) is the default; the S3 store (s3.ts)
 * keeps them in an S3-compatible bucket, so several replicas share them. Routes and builds see only
 * this interface; test/server/blobs/contract.ts holds both stores to it.
 */
import type { Readable } from 'node:stream'

export interface BlobStore {
  has(sha256: string): Promise<boolean>
  /**
   * `has`, and a blob found counts as just written (its `modifiedAt` is refreshed when older than
   * `reuseRefreshMs`), so garbage collection's grace period spares a blob a new deployment reuses.
   * Every write of bytes already stored does the same.
   */
  touch(sha256: string): Promise<boolean>
  /** The bytes, or undefined when absent. */
  get(sha256: string): Promise<Buffer | undefined>
  /** A stream of the bytes, or undefined when absent. */
  stream(sha256: string): Promise<Readable | undefined>
  /** Store bytes (idempotent) and return their sha256. */
  put(bytes: Uint8Array): Promise<string>
  /**
   * Store a stream, refusing it (nothing is kept) when it exceeds `maxBytes` or, if given, does not
   * hash to `expectedSha256`.
   */
  putStream(source: Readable, options: { maxBytes: number; expectedSha256?: string }): Promise<PutResult>
  /** Large files arrive in ordered chunks under an upload key; returns the bytes held so far. */
  appendChunk(uploadKey: string, offset: number, bytes: Uint8Array): Promise<ChunkResult>
  /** Turn a completed chunked upload into a blob if it hashes to `sha256`; drops it either way. */
  completeChunks(uploadKey: string, sha256: string): Promise<boolean>
  /**
   * Delete upload leftovers: chunked uploads whose key starts with one of `uploadKeyPrefixes`, and any
   * chunk or temp file last written before `modifiedBefore` (epoch ms). Returns how many were deleted.
   */
  sweepUploads(options: { modifiedBefore: number; uploadKeyPrefixes: readonly string[] }): Promise<number>
  /** Every stored blob, with its size and when it was written: what garbage collection sweeps. */
  list(): AsyncIterable<StoredBlob>
  /** Delete blobs (absent ones are ignored). Only garbage collection calls this. */
  delete(sha256s: readonly string[]): Promise<void>
  /** Throws when the store cannot be reached. */
  check(): Promise<void>
  /** Release connections; the store is not used afterwards. */
  close(): void
}

export interface StoredBlob {
  sha256: string
  size: number
  /** When it was written, epoch ms. */
  modifiedAt: number
}

export type PutResult =
  | { ok: true; sha256: string; size: number }
  | { ok: false; reason: 'too-large' | 'hash-mismatch'; sha256?: string; size: number }

export type ChunkResult = { ok: true; received: number } | { ok: false; expectedOffset: number }

/** A reused blob older than this is marked as written now (see `touch`); GC's grace must exceed it. */
export const reuseRefreshMs = 10 * 60_000

export const isSha256 = (value: string): boolean => /^[0-9a-f]{64}$/.test(value)
