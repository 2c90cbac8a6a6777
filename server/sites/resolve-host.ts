/**
 * Host → which deployment a site request reads. `<slug>.<base_domain>` is the project's live
 * deployment; `<deploymentId>--<slug>.<base_domain>` a ready preview; any other host is looked up in
 * the `site_hosts` table (custom domains, with a mount path). Answers are cached for a moment so the
 * hot path rarely touches the database; a promotion in this process clears its project at once.
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

export type HostLookup = { target: SiteTarget } | { missing: string }

const ttlMs = 2000

export class HostResolver {
  readonly #cache = new Map<string, { answer: HostLookup; expires: number; projectId?: string }>()

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
      ...('target' in answer ? { projectId: answer.target.projectId } : {}),
    })
    return answer
  }

  /** The cached target of a host, without waiting: the hot path's first look. */
  peek(host: string): SiteTarget | undefined {
    // Host names are case-insensitive; clients nearly always send lowercase, so try that first.
    const cached = this.#cache.get(host) ?? this.#cache.get(host.toLowerCase())
    if (!cached || cached.expires <= Date.now() || !('target' in cached.answer)) return undefined
    return cached.answer.target
  }

  /** Forget cached answers of a project (after a promotion), so the next request reads the new one. */
  forgetProject(projectId: string): void {
    for (const [host, entry] of this.#cache) if (entry.projectId === projectId) this.#cache.delete(host)
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
      const deployment = await this.repos.deployments.findInProject(project.id, label.slice(0, split))
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
    if (!project?.live_deployment_id) return { missing: `No live deployment at ${host}` }
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
