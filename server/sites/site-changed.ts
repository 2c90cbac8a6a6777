/**
 * "A site changed": the one call every place that publishes, promotes, rolls back, deletes a project,
 * changes a domain or a branch preview, or deletes deployments makes. It does both halves, so none can
 * forget one: every replica's site router forgets what it cached (the change feed) and the CDN drops
 * the files it holds (a purge by cache tag, in the background and retried).
 */
import { type CdnPurger, deploymentTag, type PurgeReason } from '../cdn/purger.js'
import type { SiteChangeFeed } from './change-feed.js'

export class SiteChanged {
  constructor(private readonly deps: { changes: SiteChangeFeed; cdn: CdnPurger }) {}

  /** What a project serves changed: its live deployment, a preview, its Git connection, or it is gone. */
  async project(projectId: string, reason: PurgeReason): Promise<void> {
    await this.deps.changes.publish({ projectId })
    void this.deps.cdn.purgeProject(projectId, reason)
  }

  /** A custom domain of `projectId` started or stopped serving. */
  async host(hostname: string, projectId: string, reason: PurgeReason): Promise<void> {
    await this.deps.changes.publish({ hostname })
    void this.deps.cdn.purgeProject(projectId, reason)
  }

  /** Deployments were deleted (garbage collection): their projects are looked up again, their files purged. */
  async deploymentsDeleted(deleted: readonly { id: string; projectId: string }[]): Promise<void> {
    for (const projectId of new Set(deleted.map((deployment) => deployment.projectId)))
      await this.deps.changes.publish({ projectId })
    void this.deps.cdn.purge(
      deleted.map((deployment) => deploymentTag(deployment.id)),
      'gc',
    )
  }
}
