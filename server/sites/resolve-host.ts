/**
 * Host → which deployment a site request reads. `<slug>.<base_domain>` is the project's live
 * deployment; `<previewToken>--<slug>.<base_domain>` a ready preview; any other host is looked up in
 * the `site_hosts` table (custom domains, with a mount path). Answers are cached for a moment so the
 * hot path rarely touches the database; a promotion in this process clears its project at once.
 */
import { LRUCache } from 'lru-cache'
import type { ServerConfig } from '../config.js'
import type { Repositories } from '../db/repositories/index.js'
import { siteScheme } from '../presenters.js'
import { isPreviewToken } from './preview-token.js'

export interface SiteTarget {
  projectId: string
  slug: string
  deploymentId: string
  preview: boolean
  /** `''` or a mount path like `/docs` (custom domains). */
  pathPrefix: string
  /** Scheme and host of absolute URLs made for this request (canonical, sitemap). */
  origin: string
}

/** `noLiveDeployment`: the site exists but nothing has been promoted yet (a reader sees a different page). */
export type HostLookup = { target: SiteTarget } | { missing: string; noLiveDeployment?: true }

export interface HostCacheOptions {
  /** How long an answer is trusted; other replicas' promotions show after at most this long. */
  ttlMs?: number
  /** Hosts that are sites, remembered at most. */
  maxSites?: number
  /** Hosts that are not sites (or have nothing live), remembered at most. */
  maxMisses?: number
}

export class HostResolver {
  /**
   * Found sites and misses are kept apart: a flood of made-up Host headers only churns `#misses`,
   * so the real sites' answers stay cached.
   */
  readonly #sites: LRUCache<string, SiteTarget>
  readonly #misses: LRUCache<string, Exclude<HostLookup, { target: SiteTarget }>>

  constructor(
    private readonly config: Pick<ServerConfig, 'baseDomain'>,
    private readonly repos: Repositories,
    cache: HostCacheOptions = {},
  ) {
    const ttl = cache.ttlMs ?? 2000
    this.#sites = new LRUCache({ max: cache.maxSites ?? 10_000, ttl })
    this.#misses = new LRUCache({ max: cache.maxMisses ?? 10_000, ttl })
  }

  async resolve(rawHost: string): Promise<HostLookup> {
    const host = rawHost.toLowerCase()
    const site = this.#sites.get(host)
    if (site) return { target: site }
    const miss = this.#misses.get(host)
    if (miss) return miss
    const answer = await this.#lookup(host)
    if ('target' in answer) this.#sites.set(host, answer.target)
    else this.#misses.set(host, answer)
    return answer
  }

  /** The cached target of a host, without waiting: the hot path's first look. */
  peek(host: string): SiteTarget | undefined {
    // Host names are case-insensitive; clients nearly always send lowercase, so try that first.
    return this.#sites.get(host) ?? this.#sites.get(host.toLowerCase())
  }

  /** Forget cached answers of a project (after a promotion), so the next request reads the new one. */
  forgetProject(projectId: string): void {
    for (const [host, target] of this.#sites.entries())
      if (target.projectId === projectId) this.#sites.delete(host)
    // A first promotion turns "no live deployment yet" into a site.
    this.#misses.clear()
  }

  async #lookup(host: string): Promise<HostLookup> {
    const suffix = `.${this.config.baseDomain}`
    const scheme = siteScheme(this.config.baseDomain)
    if (host.endsWith(suffix)) {
      const label = host.slice(0, -suffix.length)
      if (label.includes('.')) return { missing: `No docs site at ${host}` }
      const split = label.indexOf('--')
      const slug = split === -1 ? label : label.slice(split + 2)
      const project = await this.repos.projects.findBySlug(slug)
      if (!project) return { missing: `No docs site at ${host}` }
      const origin = `${scheme}://${host}`
      if (split === -1) {
        if (!project.live_deployment_id)
          return { missing: `${project.slug} has no live deployment yet`, noLiveDeployment: true }
        return {
          target: {
            projectId: project.id,
            slug,
            deploymentId: project.live_deployment_id,
            preview: false,
            pathPrefix: '',
            origin,
          },
        }
      }
      const token = label.slice(0, split)
      const deployment = isPreviewToken(token)
        ? await this.repos.deployments.findByPreviewToken(project.id, token)
        : undefined
      if (deployment?.status !== 'ready') return { missing: `No ready deployment at ${host}` }
      return {
        target: {
          projectId: project.id,
          slug,
          deploymentId: deployment.id,
          preview: true,
          pathPrefix: '',
          origin,
        },
      }
    }
    const mapped =
      (await this.repos.siteHosts.find(host)) ?? (await this.repos.siteHosts.find(host.replace(/:\d+$/, '')))
    if (!mapped) return { missing: `No docs site at ${host}` }
    const project = await this.repos.projects.findById(mapped.project_id)
    if (!project) return { missing: `No docs site at ${host}` }
    if (!project.live_deployment_id)
      return { missing: `No live deployment at ${host}`, noLiveDeployment: true }
    return {
      target: {
        projectId: project.id,
        slug: project.slug,
        deploymentId: project.live_deployment_id,
        preview: false,
        pathPrefix: mapped.path_prefix.replace(/\/+$/, ''),
        origin: `https://${host}`,
      },
    }
  }
}
