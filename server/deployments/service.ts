/**
 * The one deployment flow, whoever deploys (`docsctl push` through REST, a Git commit, anything later):
 * create from a manifest (paths, sizes and quotas checked) → receive the files the blob store lacks →
 * finalize (every file there) → the build is queued for any replica's workers. A refusal is an error of
 * ./errors.ts that each caller words for its audience; the service speaks no HTTP.
 *
 *   create ──missing hashes──▶ receive / receiveChunk ──▶ finalize ──▶ builds.enqueue ──▶ settled
 */
import type { Readable } from 'node:stream'
import { describeStoreFault } from '../blobs/faults.js'
import type { BlobStore, PutResult } from '../blobs/store.js'
import type { BuildPipeline } from '../builds/pipeline.js'
import type { ServerConfig } from '../config.js'
import type { DeploymentRow, ManifestEntry } from '../db/repositories/deployments.js'
import type { Repositories } from '../db/repositories/index.js'
import type { ProjectRow } from '../db/repositories/projects.js'
import {
  BlobStoreFault,
  ChunkRefused,
  ManifestInvalid,
  ManifestTooLarge,
  NotUploading,
  UploadIncomplete,
} from './errors.js'
import { manifestIssues } from './manifest.js'
import { checkDeploymentQuotas } from './quotas.js'

export interface DeploymentServiceDeps {
  repos: Repositories
  blobs: BlobStore
  /** Queues a finalized deployment's build, and waits on it. */
  builds: Pick<BuildPipeline, 'enqueue' | 'settled'>
  limits: Pick<ServerConfig, 'maxFilesPerDeployment' | 'maxFileBytes' | 'quotas'>
  /** Epoch ms now: the quotas' last 24 hours and a deployment's upload time count from it. */
  clock: () => number
}

export interface NewDeployment {
  branch: string
  commitMessage: string | null
  environment: string | null
  /** The commit of a Git-connected deployment. */
  commit?: { sha: string; author: string | null }
  files: readonly ManifestEntry[]
}

/** A file of a deployment's manifest, as the upload of its bytes is checked against. */
export interface ManifestFile {
  sha256: string
  size: number
}

/** Files are taken only while a deployment is uploading. */
export function requireUploading(deployment: DeploymentRow): void {
  if (deployment.status !== 'uploading') throw new NotUploading(deployment.id, deployment.status)
}

export class DeploymentService {
  constructor(private readonly deps: DeploymentServiceDeps) {}

  /**
   * The checks `create` makes, in its order (file count, each file, quotas), for a caller that must
   * refuse before it reads a file (a Git commit is checked on the sizes Git lists).
   */
  async check(project: ProjectRow, files: readonly { path: string; size: number }[]): Promise<void> {
    const { repos, limits, clock } = this.deps
    if (files.length > limits.maxFilesPerDeployment) {
      throw new ManifestTooLarge('files', limits.maxFilesPerDeployment, files.length)
    }
    const issues = manifestIssues(files, limits.maxFileBytes)
    if (issues.length) throw new ManifestInvalid(issues)
    const bytes = files.reduce((sum, file) => sum + file.size, 0)
    await checkDeploymentQuotas(repos, limits.quotas, project, { files: files.length, bytes }, clock())
  }

  /**
   * A new deployment in `uploading` with its whole manifest, and the hashes of the files to upload:
   * those the project already holds in the blob store count as received, so none is sent twice.
   */
  async create(
    project: ProjectRow,
    input: NewDeployment,
  ): Promise<{ deployment: DeploymentRow; missing: string[] }> {
    await this.check(project, input.files)
    return this.deps.repos.deployments.create({
      projectId: project.id,
      ...input,
      blobExists: (sha256) => this.#store('look up the files it holds', () => this.deps.blobs.touch(sha256)),
    })
  }

  /**
   * Store one file of the deployment from a stream. It is refused (nothing kept) when it runs past the
   * size the manifest declares or hashes otherwise; a file stored counts as received.
   */
  async receive(deployment: DeploymentRow, file: ManifestFile, bytes: Readable): Promise<PutResult> {
    requireUploading(deployment)
    const stored = await this.#store('store the upload', () =>
      this.deps.blobs.putStream(bytes, { maxBytes: file.size, expectedSha256: file.sha256 }),
    )
    if (stored.ok) await this.deps.repos.deployments.markReceived(deployment.id, file.sha256)
    return stored
  }

  /**
   * Append one chunk of a large file at `offset`; the last one turns the chunks into the file's blob
   * when they hash as the manifest declares. Answers the bytes held so far.
   */
  async receiveChunk(
    deployment: DeploymentRow,
    file: ManifestFile & { received: boolean },
    offset: number,
    chunk: Uint8Array,
  ): Promise<{ received: number; complete: boolean }> {
    requireUploading(deployment)
    if (file.received) return { received: file.size, complete: true }
    if (offset + chunk.length > file.size) throw new ChunkRefused('past-end', file.size)
    const { blobs, repos } = this.deps
    const uploadKey = `${deployment.id}-${file.sha256}`
    const appended = await this.#store('store the chunk', () => blobs.appendChunk(uploadKey, offset, chunk))
    if (!appended.ok) throw new ChunkRefused('out-of-order', appended.expectedOffset)
    if (appended.received < file.size) return { received: appended.received, complete: false }
    if (!(await this.#store('store the file', () => blobs.completeChunks(uploadKey, file.sha256)))) {
      throw new ChunkRefused('hash-mismatch', file.size)
    }
    await repos.deployments.markReceived(deployment.id, file.sha256)
    return { received: file.size, complete: true }
  }

  /**
   * Finish an upload: with every file there, its build is queued (once, however many calls race),
   * to go live when `promote`. Then wait up to `waitMs` for the build and answer the deployment as it
   * stands. A deployment past uploading is only waited on.
   */
  async finalize(
    project: ProjectRow,
    deployment: DeploymentRow,
    options: { promote: boolean; waitMs: number },
  ): Promise<DeploymentRow> {
    const { repos, builds, clock } = this.deps
    if (deployment.status === 'uploading') {
      const missing = await repos.deployments.missingPaths(deployment.id)
      if (missing.length) throw new UploadIncomplete(missing)
      const uploadMs = Math.max(0, clock() - Date.parse(deployment.created_at))
      await builds.enqueue(project, deployment, options.promote, uploadMs)
    }
    await builds.settled(deployment.id, options.waitMs)
    return (await repos.deployments.findById(deployment.id)) ?? deployment
  }

  /** A blob-store call whose failure is the store's, never the caller's. */
  async #store<T>(action: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call()
    } catch (error) {
      throw new BlobStoreFault(action, error, describeStoreFault(error))
    }
  }
}
