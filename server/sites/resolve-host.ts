/**
 * Host → which deployments a site request may read. `<slug>.<base_domain>` is the project's live
 * deployment; `<previewToken>--<slug>.<base_domain>` a ready preview (or `<branch>--<slug>`, the latest
 * preview of a Git branch); any other host is a custom
 * domain: the verified mounts on it (one per path prefix, longest first), and `pickTarget` chooses by
 * path. A found site's answer stays cached until a promotion or domain change (announced to every
 * replica, see change-feed.ts) clears it, so serving never waits on the database for a resolved site;
 * past `ttlMs` it is still served while a background lookup refreshes it, and kept when the database
 * is unreachable. Misses are cached briefly.
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

/**
 * The targets of a host, longest path prefix first (one for `<slug>.<base_domain>` hosts).
 * `noLiveDeployment`: the site exists but nothing has been promoted yet (for logs and tests: a reader
 * gets the same answer as for no site at all, see missing-site.ts).
 */
export type HostLookup = { targets: SiteTarget[] } | { missing: string; noLiveDeployment?: true }

/** The target whose prefix holds `path` (decoded or raw; prefixes are plain URL characters). */
export function pickTarget(targets: readonly SiteTarget[], path: string): SiteTarget | undefined {
  return targets.find(
    (target) =>
      target.pathPrefix === '' || path === target.pathPrefix || path.startsWith(`${target.pathPrefix}/`),
  )
}

/** A Host header's name without the port or root dot, which custom domains are stored without. */
const hostnameOf = (host: string): string => host.replace(/:\d+$/, '').replace(/\.$/, '')

export interface HostCacheOptions {
  /** After this long a found site is refreshed in the background (a safety net for lost announcements). */
  ttlMs?: number
  /** How long "no site here" is trusted. */
  missTtlMs?: number
  /** Hosts that are sites, remembered at most. */
  maxSites?: number
  /** Hosts that are not sites (or have nothing live), remembered at most. */
  maxMisses?: number
  /** The clock the TTLs run on (`performance` by default); tests pass their own, so none waits. */
  clock?: { now(): number }
}

/**
 * The caches' clock: the injected one, or the process's read at every look (`ttlResolution: 0`).
 * lru-cache's default keeps a reading for 1 ms with a timer, and so set a timer a millisecond for every
 * request a busy site server answered.
 */
const clockOf = (cache: HostCacheOptions) => ({
  ttlResolution: 0,
  ...(cache.clock ? { perf: cache.clock } : {}),
})

export class HostResolver {
  /**
   * Found sites and misses are kept apart: a flood of made-up Host headers only churns `#misses`,
   * so the real sites' answers stay cached.
   */
  readonly #sites: LRUCache<string, SiteTarget[]>
  readonly #misses: LRUCache<string, Exclude<HostLookup, { targets: SiteTarget[] }>>

  constructor(
    private readonly config: Pick<ServerConfig, 'baseDomain'>,
    private readonly repos: Repositories,
    cache: HostCacheOptions = {},
  ) {
    this.#sites = new LRUCache({
      max: cache.maxSites ?? 10_000,
      ttl: cache.ttlMs ?? 30_000,
      allowStale: true,
      noDeleteOnStaleGet: true,
      ...clockOf(cache),
    })
    this.#misses = new LRUCache({
      max: cache.maxMisses ?? 10_000,
      ttl: cache.missTtlMs ?? 2000,
      ...clockOf(cache),
    })
  }

  /** What a host serves: at once when it is cached (no promise for the hot path to wait on), else looked up. */
  resolve(rawHost: string): HostLookup | Promise<HostLookup> {
    const host = rawHost.toLowerCase()
    const targets = this.#cachedSite(host)
    if (targets) return { targets }
    return this.#misses.get(host) ?? this.#lookUpAndRemember(host)
  }

  async #lookUpAndRemember(host: string): Promise<HostLookup> {
    const generation = this.#generation
    const answer = await this.#lookup(host)
    // Not kept when a change was announced during the lookup: it may predate that change.
    if (generation === this.#generation) this.#remember(host, answer)
    return answer
  }

  /** The cached targets of a host, without waiting: the hot path's first look. */
  peek(host: string): readonly SiteTarget[] | undefined {
    // Host names are case-insensitive; clients nearly always send lowercase, so try that first.
    return this.#cachedSite(host) ?? this.#cachedSite(host.toLowerCase())
  }

  /** Hosts whose refresh is under way, so a burst of requests starts one lookup. */
  readonly #refreshing = new Set<string>()
  /** Counts forgets, so a background refresh that raced one is not kept. */
  #generation = 0

  #cachedSite(host: string): SiteTarget[] | undefined {
    const status: LRUCache.Status<string, SiteTarget[]> = {}
    const targets = this.#sites.get(host, { status })
    if (targets && status.get === 'stale' && !this.#refreshing.has(host)) {
      this.#refreshing.add(host)
      const generation = this.#generation
      // The stale answer keeps serving; an unreachable database keeps it until the next try.
      this.#lookup(host)
        .then((answer) => {
          // A change announced meanwhile may make this answer older than the cache: drop it.
          if (generation === this.#generation) this.#remember(host, answer)
        })
        .catch(() => {})
        .finally(() => this.#refreshing.delete(host))
    }
    return targets
  }

  #remember(host: string, answer: HostLookup): void {
    if ('targets' in answer) {
      this.#sites.set(host, answer.targets)
      this.#misses.delete(host)
    } else {
      this.#sites.delete(host)
      this.#misses.set(host, answer)
    }
  }

  /** Forget cached answers of a project (after a promotion), so the next request reads the new one. */
  forgetProject(projectId: string): void {
    this.#generation++
    for (const [host, targets] of this.#sites.entries())
      if (targets.some((target) => target.projectId === projectId)) this.#sites.delete(host)
    // A first promotion turns "no live deployment yet" into a site.
    this.#misses.clear()
  }

  /** Forget cached answers of a custom domain (on any port), after it starts or stops serving. */
  forgetHost(hostname: string): void {
    this.#generation++
    for (const cache of [this.#sites, this.#misses])
      for (const host of [...cache.keys()]) if (hostnameOf(host) === hostname) cache.delete(host)
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
          targets: [
            {
              projectId: project.id,
              slug,
              deploymentId: project.live_deployment_id,
              preview: false,
              pathPrefix: '',
              origin,
            },
          ],
        }
      }
      const token = label.slice(0, split)
      let deployment = isPreviewToken(token)
        ? await this.repos.deployments.findByPreviewToken(project.id, token)
        : undefined
      // Otherwise a branch alias of a Git-connected project: `<branch-slug>--<slug>` (server/git).
      if (!deployment) {
        const aliased = await this.repos.git.branchPreview(project.id, token)
        deployment = aliased ? await this.repos.deployments.findInProject(project.id, aliased) : undefined
      }
      if (deployment?.status !== 'ready') return { missing: `No ready deployment at ${host}` }
      return {
        targets: [
          {
            projectId: project.id,
            slug,
            deploymentId: deployment.id,
            preview: true,
            pathPrefix: '',
            origin,
          },
        ],
      }
    }
    // A custom domain: only mounts proven in DNS, read from the database (no DNS lookup here).
    const hostname = hostnameOf(host)
    const mounts = await this.repos.domains.servingMounts(hostname)
    const targets: SiteTarget[] = []
    for (const mount of mounts) {
      if (!mount.liveDeploymentId) continue
      targets.push({
        projectId: mount.projectId,
        slug: mount.slug,
        deploymentId: mount.liveDeploymentId,
        preview: false,
        pathPrefix: mount.pathPrefix,
        origin: `https://${hostname}`,
      })
    }
    if (targets.length > 0) return { targets }
    if (mounts.length > 0) return { missing: `No live deployment at ${host}`, noLiveDeployment: true }
    return { missing: `No docs site at ${host}` }
  }
}
