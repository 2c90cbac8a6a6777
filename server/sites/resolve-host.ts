/**
 * Host → which deployments a site request may read. `<slug>.<base_domain>` is the project's live
 * deployment; `<deploymentId>--<slug>.<base_domain>` a ready preview; any other host is a custom
 * domain: the verified mounts on it (one per path prefix, longest first), and `pickTarget` chooses by
 * path. Answers are cached for a moment so the hot path rarely touches the database (and never DNS);
 * a promotion or a domain change in this process clears what it touched at once.
 */
import type { ServerConfig } from '../config.js'
import type { Repositories } from '../db/repositories/index.js'
import { siteScheme } from '../presenters.js'

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

/** The targets of a host, longest path prefix first (one for `<slug>.<base_domain>` hosts). */
export type HostLookup = { targets: SiteTarget[] } | { missing: string }

/** The target whose prefix holds `path` (decoded or raw; prefixes are plain URL characters). */
export function pickTarget(targets: readonly SiteTarget[], path: string): SiteTarget | undefined {
  return targets.find(
    (target) =>
      target.pathPrefix === '' || path === target.pathPrefix || path.startsWith(`${target.pathPrefix}/`),
  )
}

/** A Host header's name without the port or root dot, which custom domains are stored without. */
const hostnameOf = (host: string): string => host.replace(/:\d+$/, '').replace(/\.$/, '')

const ttlMs = 2000

export class HostResolver {
  readonly #cache = new Map<string, { answer: HostLookup; expires: number; projectIds: string[] }>()

  constructor(
    private readonly config: Pick<ServerConfig, 'baseDomain'>,
    private readonly repos: Repositories,
  ) {}

  async resolve(rawHost: string): Promise<HostLookup> {
    const host = rawHost.toLowerCase()
    const cached = this.#cache.get(host)
    if (cached && cached.expires > Date.now()) return cached.answer
    const answer = await this.#lookup(host)
    if (this.#cache.size > 10_000) this.#cache.clear()
    this.#cache.set(host, {
      answer,
      expires: Date.now() + ttlMs,
      projectIds: 'targets' in answer ? answer.targets.map((target) => target.projectId) : [],
    })
    return answer
  }

  /** The cached targets of a host, without waiting: the hot path's first look. */
  peek(host: string): readonly SiteTarget[] | undefined {
    // Host names are case-insensitive; clients nearly always send lowercase, so try that first.
    const cached = this.#cache.get(host) ?? this.#cache.get(host.toLowerCase())
    if (!cached || cached.expires <= Date.now() || !('targets' in cached.answer)) return undefined
    return cached.answer.targets
  }

  /** Forget cached answers of a project (after a promotion), so the next request reads the new one. */
  forgetProject(projectId: string): void {
    for (const [host, entry] of this.#cache)
      if (entry.projectIds.includes(projectId)) this.#cache.delete(host)
  }

  /** Forget cached answers of a custom domain (on any port), after it starts or stops serving. */
  forgetHost(hostname: string): void {
    for (const host of this.#cache.keys()) if (hostnameOf(host) === hostname) this.#cache.delete(host)
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
        if (!project.live_deployment_id) return { missing: `${project.slug} has no live deployment yet` }
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
      const deployment = await this.repos.deployments.findInProject(project.id, label.slice(0, split))
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
    const targets: SiteTarget[] = []
    for (const mount of await this.repos.domains.servingMounts(hostname)) {
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
    return targets.length > 0 ? { targets } : { missing: `No docs site at ${host}` }
  }
}
