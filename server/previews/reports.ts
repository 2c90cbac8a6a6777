/**
 * The change reports service: a ready preview deployment's report against the deployment live when it
 * is first asked for, made once (the Git deployer asks when a preview is built, `docsctl push
 * --preview` through the API) and kept. Screenshots are taken when the server has Chromium; their
 * blobs are listed with the report, so the collector keeps them while the deployment exists.
 *
 *   reportOf(project, deployment) ──▶ loadBuiltSite × 2 ──▶ compareSites ──▶ takeScreenshots ──▶ saved
 */
import type { Diagnostic } from '../../compiler/diagnostics.js'
import type { ChangeReport as ChangeReportSchema, Shape } from '../../schemas/api/index.js'
import type { BlobStore } from '../blobs/store.js'
import { readSiteManifest } from '../builds/site-manifest-store.js'
import type { ServerConfig } from '../config.js'
import type { ChangeReportRow } from '../db/repositories/change-reports.js'
import type { DeploymentRow } from '../db/repositories/deployments.js'
import type { Repositories } from '../db/repositories/index.js'
import type { ProjectRow } from '../db/repositories/projects.js'
import { previewUrl } from '../presenters.js'
import { loadBuiltSite } from './built-site.js'
import { compareSites, type SiteComparison } from './change-report.js'
import { reportMarkdown } from './report-markdown.js'
import { type SiteFiles, takeScreenshots } from './screenshots.js'

export type ChangeReport = Shape<typeof ChangeReportSchema>

interface StoredScreenshot {
  slug: string
  viewport: 'desktop' | 'phone'
  width: number
  live: string | null
  preview: string
  difference: string | null
  differentPixels: number
}

/** The report as kept: the comparison and the screenshots' blobs; URLs are made when it is shown. */
export interface StoredReport extends SiteComparison {
  error?: string
  screenshots: { taken: boolean; reason: string | null; pages: StoredScreenshot[] }
}

export interface ChangeReportsDeps {
  repos: Repositories
  blobs: BlobStore
  config: Pick<ServerConfig, 'chromiumPath' | 'reportScreenshots' | 'baseDomain'> & {
    signIn: { publicUrl: string }
  }
  log: { warn(object: object, message: string): void }
}

const emptyComparison = (): SiteComparison => ({
  pages: { added: [], removed: [], changed: [], unchanged: 0 },
  links: { introduced: [], fixed: [] },
  warnings: { introduced: [] },
  missingRedirects: [],
  navigation: [],
})

export class ChangeReports {
  readonly #running = new Map<string, Promise<ChangeReportRow>>()

  constructor(private readonly deps: ChangeReportsDeps) {}

  /** The deployment's report, made now when it has none (once, however many ask at the same time). */
  async reportOf(project: ProjectRow, deployment: DeploymentRow): Promise<ChangeReportRow> {
    const stored = await this.deps.repos.changeReports.find(deployment.id)
    if (stored) return stored
    let running = this.#running.get(deployment.id)
    if (!running) {
      running = this.#make(project, deployment).finally(() => this.#running.delete(deployment.id))
      this.#running.set(deployment.id, running)
    }
    return running
  }

  async #make(project: ProjectRow, deployment: DeploymentRow): Promise<ChangeReportRow> {
    const { repos } = this.deps
    const baseId =
      project.live_deployment_id && project.live_deployment_id !== deployment.id
        ? project.live_deployment_id
        : null
    const base = baseId ? await repos.deployments.findById(baseId) : undefined
    let report: StoredReport
    const images: string[] = []
    try {
      report = await this.#compare(deployment, base, images)
    } catch (error) {
      // Shown, never kept: the next ask tries again (the blob store may be back).
      this.deps.log.warn({ err: error, deploymentId: deployment.id }, 'the change report could not be made')
      const failed: StoredReport = {
        ...emptyComparison(),
        error: error instanceof Error ? error.message : String(error),
        screenshots: { taken: false, reason: 'The report could not be made', pages: [] },
      }
      return {
        deployment_id: deployment.id,
        base_deployment_id: base?.id ?? null,
        status: 'failed',
        report: JSON.stringify(failed),
        created_at: new Date().toISOString(),
      }
    }
    await repos.changeReports.save({
      deploymentId: deployment.id,
      baseDeploymentId: base?.id ?? null,
      status: 'ready',
      report: JSON.stringify(report),
      images,
    })
    const saved = await repos.changeReports.find(deployment.id)
    if (!saved) throw new Error(`the change report of ${deployment.id} was not saved`)
    return saved
  }

  async #diagnostics(deploymentId: string): Promise<Diagnostic[]> {
    const all: Diagnostic[] = []
    let offset: number | null = 0
    while (offset !== null) {
      const page: { diagnostics: Diagnostic[]; next: number | null } =
        await this.deps.repos.deployments.diagnostics(deploymentId, offset, 500)
      all.push(...page.diagnostics)
      offset = page.next
    }
    return all
  }

  async #compare(
    deployment: DeploymentRow,
    base: DeploymentRow | undefined,
    images: string[],
  ): Promise<StoredReport> {
    const { blobs } = this.deps
    if (deployment.status !== 'ready' || !deployment.site_manifest_sha256)
      throw new Error(`${deployment.id} is ${deployment.status}: only a built deployment has a report`)
    const previewSite = await loadBuiltSite(blobs, deployment.site_manifest_sha256)
    const liveSite = base?.site_manifest_sha256
      ? await loadBuiltSite(blobs, base.site_manifest_sha256)
      : undefined
    const comparison = compareSites(
      liveSite && base ? { site: liveSite, diagnostics: await this.#diagnostics(base.id) } : undefined,
      { site: previewSite, diagnostics: await this.#diagnostics(deployment.id) },
    )
    const screenshots = await this.#screenshots(comparison, deployment, base, images)
    return { ...comparison, screenshots }
  }

  async #screenshots(
    comparison: SiteComparison,
    deployment: DeploymentRow,
    base: DeploymentRow | undefined,
    images: string[],
  ): Promise<StoredReport['screenshots']> {
    const { blobs, config } = this.deps
    if (!config.chromiumPath)
      return {
        taken: false,
        reason: 'The server has no Chromium (start it with --chromium <path> for screenshots)',
        pages: [],
      }
    const slugs = [
      ...comparison.pages.changed.map((page) => ({ slug: page.slug, live: true })),
      ...comparison.pages.added.map((page) => ({ slug: page.slug, live: false })),
    ].slice(0, config.reportScreenshots)
    if (slugs.length === 0) return { taken: false, reason: 'No page was added or changed', pages: [] }
    const filesOf = async (manifestSha256: string): Promise<SiteFiles> => {
      const read = await readSiteManifest(blobs, manifestSha256)
      if (!read) throw new Error(`the site manifest ${manifestSha256} is not in the blob store`)
      const { files } = read.manifest
      return async (path) => {
        const entry = files[path]
        if (!entry) return undefined
        const file = await blobs.get(entry.sha256)
        return file ? { bytes: file, contentType: entry.contentType } : undefined
      }
    }
    try {
      const shots = await takeScreenshots({
        chromiumPath: config.chromiumPath,
        live: base?.site_manifest_sha256 ? await filesOf(base.site_manifest_sha256) : undefined,
        preview: await filesOf(deployment.site_manifest_sha256 ?? ''),
        slugs,
      })
      const store = async (image: Buffer | null): Promise<string | null> => {
        if (!image) return null
        const sha256 = await blobs.put(image)
        images.push(sha256)
        return sha256
      }
      const pages: StoredScreenshot[] = []
      for (const shot of shots) {
        pages.push({
          slug: shot.slug,
          viewport: shot.viewport,
          width: shot.width,
          live: await store(shot.live),
          preview: (await store(shot.preview)) ?? '',
          difference: await store(shot.difference),
          differentPixels: shot.differentPixels,
        })
      }
      return { taken: true, reason: null, pages }
    } catch (error) {
      this.deps.log.warn({ err: error, deploymentId: deployment.id }, 'change report screenshots failed')
      return {
        taken: false,
        reason: `Chromium could not take the screenshots: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        pages: [],
      }
    }
  }

  /** The report as the API shows it, with the URLs of its images and of itself. */
  present(project: ProjectRow, deployment: DeploymentRow, row: ChangeReportRow): ChangeReport {
    const { config } = this.deps
    const stored = JSON.parse(row.report) as StoredReport
    const url = reportUrl(config.signIn.publicUrl, project.slug, deployment.id)
    const image = (sha256: string | null) => (sha256 ? { sha256, url: `${url}/images/${sha256}` } : null)
    const preview =
      deployment.status === 'ready' ? previewUrl(config, deployment.preview_token, project.slug) : null
    const report: Omit<ChangeReport, 'summary'> = {
      deploymentId: deployment.id,
      baseDeploymentId: row.base_deployment_id,
      status: row.status,
      ...(stored.error === undefined ? {} : { error: stored.error }),
      createdAt: row.created_at,
      url,
      previewUrl: preview,
      pages: stored.pages,
      links: stored.links,
      warnings: stored.warnings,
      missingRedirects: stored.missingRedirects,
      navigation: stored.navigation,
      screenshots: {
        taken: stored.screenshots.taken,
        reason: stored.screenshots.reason,
        pages: stored.screenshots.pages.map((shot) => ({
          slug: shot.slug,
          viewport: shot.viewport,
          width: shot.width,
          live: image(shot.live),
          preview: image(shot.preview),
          difference: image(shot.difference),
          differentPixels: shot.differentPixels,
        })),
      },
    }
    return { ...report, summary: reportMarkdown(report) }
  }
}

export const reportUrl = (publicUrl: string, slug: string, deploymentId: string): string =>
  `${publicUrl}/projects/slug/${encodeURIComponent(slug)}/deployments/${encodeURIComponent(deploymentId)}/report`
