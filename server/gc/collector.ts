/**
 * Retention and garbage collection. First the deployments: each project keeps its live deployment,
 * the last N that were once live (rollback targets) and every deployment younger than the keep age;
 * the rest (old previews, old failures, old rollback targets) are deleted. Then the blobs, by mark
 * and sweep: mark every blob a remaining deployment references (its sources, its built files and
 * their compressed variants, its site manifest and build cache), list the store, and sweep what is
 * unmarked and older than the grace period. Before the sweep, a generation check marks again from
 * every deployment created or changed since the mark began, so a push that reused a blob meanwhile
 * keeps it; builds still running are covered by the grace period, because every reuse of a blob
 * refreshes it (BlobStore.touch) and the grace outlasts the longest build.
 */

import type { BlobStore } from '../blobs/store.js'
import { readSiteManifest } from '../builds/site-manifest-store.js'
import type { Repositories } from '../db/repositories/index.js'
import type { RetainedDeployment } from '../db/repositories/retention.js'
import type { RetentionConfig } from './settings.js'

export interface GcReport {
  dryRun: boolean
  /** Deployments deleted (or, in a dry run, that would be), with why they were not kept. */
  deployments: { id: string; projectId: string; reason: string }[]
  blobsDeleted: number
  bytesFreed: number
  /** The store before and after (after = before in a dry run, less what would go). */
  before: { blobs: number; bytes: number }
  after: { blobs: number; bytes: number }
  durationMs: number
}

export type GcOptions = Pick<RetentionConfig, 'keepDeployments' | 'keepAgeSeconds' | 'graceSeconds'>

export class GarbageCollector {
  /** Called with the deployments a run deleted (their CDN tags and cached previews go too). */
  onDeploymentsDeleted: (deleted: { id: string; projectId: string }[]) => void = () => {}

  constructor(
    private readonly repos: Pick<Repositories, 'retention'>,
    private readonly blobs: BlobStore,
    private readonly options: GcOptions,
  ) {}

  /** Which deployments go, and why: everything not kept by the rules. */
  plan(deployments: readonly RetainedDeployment[], now: number): GcReport['deployments'] {
    const doomed: GcReport['deployments'] = []
    const keepAfter = new Date(now - this.options.keepAgeSeconds * 1000).toISOString()
    const onceLive = new Map<string, number>()
    // Newest first within each project (the repository's order).
    for (const deployment of deployments) {
      if (deployment.live || deployment.status === 'uploading' || deployment.status === 'building') continue
      if (deployment.liveAt !== null) {
        const seen = (onceLive.get(deployment.projectId) ?? 0) + 1
        onceLive.set(deployment.projectId, seen)
        // The live one counts as one of the N it keeps.
        if (seen < this.options.keepDeployments) continue
      }
      if (deployment.createdAt >= keepAfter) continue
      doomed.push({
        id: deployment.id,
        projectId: deployment.projectId,
        reason:
          deployment.liveAt !== null
            ? `older than the last ${this.options.keepDeployments} live deployments`
            : deployment.status === 'failed'
              ? 'a failed deployment past the keep age'
              : 'a preview past the keep age',
      })
    }
    return doomed
  }

  async run(options: { dryRun?: boolean; now?: number } = {}): Promise<GcReport> {
    const dryRun = options.dryRun ?? false
    const now = options.now ?? Date.now()
    const started = performance.now()
    const markStarted = new Date().toISOString()
    const deployments = await this.repos.retention.deployments()
    let doomed = this.plan(deployments, now)
    if (!dryRun) {
      const deleted = new Set(await this.repos.retention.deleteDeployments(doomed.map((plan) => plan.id)))
      doomed = doomed.filter((plan) => deleted.has(plan.id))
      if (doomed.length) this.onDeploymentsDeleted(doomed)
    }
    const gone = new Set(doomed.map((plan) => plan.id))
    const remaining = deployments.filter((deployment) => !gone.has(deployment.id))

    // Mark.
    const marked = await this.repos.retention.sourceHashes(dryRun ? remaining.map((d) => d.id) : undefined)
    await this.#markBuilt(remaining, marked)

    // List, keeping what is marked or younger than the grace period.
    const sweepBefore = now - this.options.graceSeconds * 1000
    const before = { blobs: 0, bytes: 0 }
    let candidates: { sha256: string; size: number }[] = []
    for await (const blob of this.blobs.list()) {
      before.blobs++
      before.bytes += blob.size
      if (!marked.has(blob.sha256) && blob.modifiedAt < sweepBefore) candidates.push(blob)
    }

    // Generation check: whatever changed since the mark began marks again.
    const changed = await this.repos.retention.deployments(markStarted)
    if (changed.length) {
      const again = await this.repos.retention.sourceHashes(changed.map((deployment) => deployment.id))
      await this.#markBuilt(changed, again)
      candidates = candidates.filter((blob) => !again.has(blob.sha256))
    }

    // Sweep.
    const bytesFreed = candidates.reduce((sum, blob) => sum + blob.size, 0)
    if (!dryRun) await this.blobs.delete(candidates.map((blob) => blob.sha256))
    return {
      dryRun,
      deployments: doomed,
      blobsDeleted: candidates.length,
      bytesFreed,
      before,
      after: { blobs: before.blobs - candidates.length, bytes: before.bytes - bytesFreed },
      durationMs: Math.round(performance.now() - started),
    }
  }

  /** Adds each deployment's manifest, build cache and every built file (with variants) to `marked`. */
  async #markBuilt(deployments: readonly RetainedDeployment[], marked: Set<string>): Promise<void> {
    for (const deployment of deployments) {
      if (deployment.buildCacheSha256) marked.add(deployment.buildCacheSha256)
      if (!deployment.siteManifestSha256) continue
      marked.add(deployment.siteManifestSha256)
      // A store that cannot be read throws here, and the run stops before it deletes anything.
      const read = await readSiteManifest(this.blobs, deployment.siteManifestSha256)
      if (!read) continue
      const { manifest, parts } = read
      for (const part of parts) marked.add(part)
      for (const entry of Object.values(manifest.files)) {
        marked.add(entry.sha256)
        if (entry.br) marked.add(entry.br.sha256)
        if (entry.gzip) marked.add(entry.gzip.sha256)
      }
    }
  }
}

/** What a run freed, in the words `docs-server gc` prints. */
export function describeGcReport(report: GcReport, where: string): string {
  const mb = (bytes: number) =>
    bytes < 1024
      ? `${bytes} B`
      : bytes < 1024 ** 2
        ? `${(bytes / 1024).toFixed(1)} KB`
        : `${(bytes / 1024 ** 2).toFixed(1)} MB`
  const verb = report.dryRun ? 'would delete' : 'deleted'
  const lines = [
    `${report.dryRun ? 'Dry run: nothing deleted. ' : ''}Blob store ${where}`,
    `  before: ${report.before.blobs} blobs, ${mb(report.before.bytes)}`,
    `  ${verb} ${report.deployments.length} deployment(s) and ${report.blobsDeleted} blob(s), freeing ${mb(report.bytesFreed)}`,
    `  after:  ${report.after.blobs} blobs, ${mb(report.after.bytes)} (${report.durationMs} ms)`,
  ]
  for (const deployment of report.deployments)
    lines.push(`  - ${deployment.id} (project ${deployment.projectId}): ${deployment.reason}`)
  return lines.join('\n')
}
