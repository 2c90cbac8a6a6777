/**
 * Upload only what the server lacks: small files packed into multipart batches of at most 4 MB a
 * request, files too big for a batch sent through the chunk endpoint in order, several requests in
 * flight at once. Transient failures are retried by the API client.
 */
import { type ApiClient, ApiError } from '../api.js'
import type { HashedSite } from './manifest.js'

/** 4 MB as the API counts it, whole request included; 4,000,000 also fits under 4 MiB. */
export const maxRequestBytes = 4_000_000
/** Room for the multipart boundary and part headers of one file (its path appears twice). */
const partOverhead = (path: string) => 200 + 2 * Buffer.byteLength(path)

export interface UploadFile {
  path: string
  sha256: string
  bytes: Uint8Array
}

export interface UploadPlan {
  batches: UploadFile[][]
  chunked: UploadFile[]
  files: number
  bytes: number
}

/** Largest-first packing into batches; anything that cannot share a request goes in chunks. */
export function planUpload(
  site: HashedSite,
  missing: readonly string[],
  limit = maxRequestBytes,
): UploadPlan {
  const files: UploadFile[] = []
  for (const sha256 of new Set(missing)) {
    const source = site.bytesByHash.get(sha256)
    if (!source) throw new Error(`the server asked for ${sha256}, which is not in this site's manifest`)
    files.push({ path: source.path, sha256, bytes: source.bytes })
  }
  const cost = (file: UploadFile) => file.bytes.byteLength + partOverhead(file.path)
  const chunked = files.filter((file) => cost(file) > limit)
  const batched = files.filter((file) => cost(file) <= limit).sort((a, b) => cost(b) - cost(a))
  const batches: { files: UploadFile[]; size: number }[] = []
  for (const file of batched) {
    const fits = batches.find((batch) => batch.size + cost(file) <= limit)
    if (fits) {
      fits.files.push(file)
      fits.size += cost(file)
    } else batches.push({ files: [file], size: 200 + cost(file) })
  }
  return {
    batches: batches.map((batch) => batch.files),
    chunked,
    files: files.length,
    bytes: files.reduce((sum, file) => sum + file.bytes.byteLength, 0),
  }
}

export interface UploadProgress {
  /** Called after each request with the bytes it carried. */
  advance(bytes: number): void
}

/** Run `tasks` with at most `concurrency` in flight; the first failure stops new ones and is thrown. */
export async function runPool(tasks: (() => Promise<void>)[], concurrency: number): Promise<void> {
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < tasks.length) {
      const task = tasks[next++]!
      try {
        await task()
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker))
}

export async function uploadMissing(input: {
  client: ApiClient
  slug: string
  deploymentId: string
  plan: UploadPlan
  progress: UploadProgress
  concurrency?: number
  chunkBytes?: number
}): Promise<void> {
  const { client, slug, deploymentId, plan, progress } = input
  const chunkBytes = input.chunkBytes ?? maxRequestBytes
  const tasks: (() => Promise<void>)[] = plan.batches.map((batch) => async () => {
    await client.uploadBatch(slug, deploymentId, batch)
    progress.advance(batch.reduce((sum, file) => sum + file.bytes.byteLength, 0))
  })
  for (const file of plan.chunked) {
    // The chunks of one file go in order (the server appends); different files run side by side.
    tasks.push(async () => {
      let offset = 0
      while (offset < file.bytes.byteLength) {
        const chunk = file.bytes.subarray(offset, Math.min(offset + chunkBytes, file.bytes.byteLength))
        try {
          const answer = await client.uploadChunk(slug, deploymentId, file.sha256, offset, chunk)
          progress.advance(chunk.byteLength)
          offset = answer.complete ? file.bytes.byteLength : answer.received
        } catch (error) {
          // A retried chunk the server already appended: continue from where the server is.
          const expected =
            error instanceof ApiError && error.status === 409 ? expectedOffset(error) : undefined
          if (expected === undefined || expected <= offset || expected > file.bytes.byteLength) throw error
          progress.advance(expected - offset)
          offset = expected
        }
      }
    })
  }
  await runPool(tasks, input.concurrency ?? 4)
}

/** The offset a 409 names ("expected offset 4000000"), from its issues or its message. */
function expectedOffset(error: ApiError): number | undefined {
  for (const text of [...error.issues.map((issue) => issue.message), error.message]) {
    const match = /(\d+)/.exec(text)
    if (match) return Number(match[1])
  }
  return undefined
}
