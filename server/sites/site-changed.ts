/**
 * "A site changed": the one call every place that publishes, promotes, rolls back, deletes a project,
 * changes a domain or a branch preview, or deletes deployments makes. It does both halves, so none can
 * forget one: every replica's site router forgets what it cached (the change feed) and the CDN drops
 * the files it holds (a purge by cache tag and site URL, recorded as a job before this returns, so any
 * replica finishes it; see cdn/purger.ts).
 */
import { type CdnPurger, deploymentTag, type PurgeReason, projectTag } from '../cdn/purger.js'
import type { SiteChangeFeed } from './change-feed.js'

export interface SiteChangedDeps {
  changes: SiteChangeFeed
  cdn: CdnPurger
  /** The base URLs a project's site answers at: its subdomain and its verified custom domains. */
  addresses: (projectId: string) => Promise<string[]>
}

export class SiteChanged {
  constructor(private readonly deps: SiteChangedDeps) {}

  /**
   * The base URLs of a project's site, for a purge by URL; empty without a CDN, or when they cannot be
   * read now (the tag purge still goes out). Read them before deleting a project: after, they are gone.
   */
  async addressesOf(projectId: string): Promise<string[]> {
    if (!this.deps.cdn.enabled) return []
    return this.deps.addresses(projectId).catch(() => [])
  }

  /**
   * What a project serves changed: its live deployment, a preview, its Git connection, or it is gone
   * (then pass the `addresses` read before it went).
   */
  async project(projectId: string, reason: PurgeReason, addresses?: readonly string[]): Promise<void> {
    const urls = addresses ?? (await this.addressesOf(projectId))
    await this.deps.changes.publish({ projectId })
    await this.deps.cdn.purge([projectTag(projectId)], reason, urls)
  }

  /** A custom domain of `projectId` started or stopped serving: everything under that host. */
  async host(hostname: string, projectId: string, reason: PurgeReason): Promise<void> {
    await this.deps.changes.publish({ hostname })
    await this.deps.cdn.purge([projectTag(projectId)], reason, [`https://${hostname}/`])
  }

  /** Deployments were deleted (garbage collection): their projects are looked up again, their files purged. */
  async deploymentsDeleted(deleted: readonly { id: string; projectId: string }[]): Promise<void> {
    for (const projectId of new Set(deleted.map((deployment) => deployment.projectId)))
      await this.deps.changes.publish({ projectId })
    await this.deps.cdn.purge(
      deleted.map((deployment) => deploymentTag(deployment.id)),
      'gc',
    )
  }
}
