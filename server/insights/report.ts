/**
 * A project's insights over a range of days, from the daily aggregates: the one answer behind
 * `GET /projects/:projectId/insights`, the dashboard's Insights tab and `docsctl insights`. Searches
 * without results and missing paths are read against the live deployment's search index, to name
 * the closest pages.
 */
import { parseSearchIndex, SEARCH_INDEX_PATH } from '../../compiler/outputs/search-index.js'
import type { IndexedPage } from '../../compiler/outputs/search-rank.js'
import type { Shape } from '../../schemas/api/index.js'
import type { InsightsReport } from '../../schemas/api/insights.js'
import type { BlobStore } from '../blobs/store.js'
import { readManifestHead } from '../builds/site-manifest-store.js'
import type { Repositories } from '../db/repositories/index.js'
import type { InsightRange } from '../db/repositories/insights.js'
import { closestPath, closestTitles } from './nearest.js'

export type InsightsReportBody = Shape<typeof InsightsReport>

/** Every UTC day from `from` to `to`, inclusive. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = []
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`); ms += 86_400_000)
    days.push(new Date(ms).toISOString().slice(0, 10))
  return days
}

/** The live deployment's pages as the search index lists them (none before a first deployment). */
async function livePages(
  repos: Pick<Repositories, 'deployments'>,
  blobs: BlobStore,
  liveDeploymentId: string | null,
): Promise<IndexedPage[]> {
  if (!liveDeploymentId) return []
  const deployment = await repos.deployments.findById(liveDeploymentId)
  if (!deployment?.site_manifest_sha256) return []
  // The search index is a file of the manifest's head: no shard is read.
  const head = await readManifestHead(blobs, deployment.site_manifest_sha256)
  const index = head?.files.get(SEARCH_INDEX_PATH)
  const script = index ? await blobs.get(index.sha256) : undefined
  return script ? parseSearchIndex(script.toString('utf8')).pages : []
}

export async function insightsReport(
  repos: Pick<Repositories, 'insights' | 'deployments'>,
  blobs: BlobStore,
  project: { id: string; live_deployment_id: string | null },
  range: Omit<InsightRange, 'projectId'>,
  limit: number,
): Promise<InsightsReportBody> {
  const within: InsightRange = { projectId: project.id, ...range }
  const [views, visitors, pages, referrers, screens, searches, none, helpful, notHelpful, copies, missing] =
    await Promise.all([
      repos.insights.perDay(within, 'view'),
      repos.insights.perDay(within, 'visitors'),
      repos.insights.top(within, 'view', limit),
      repos.insights.top(within, 'referrer', limit),
      repos.insights.top(within, 'screen', limit),
      repos.insights.top(within, 'search', limit),
      repos.insights.top(within, 'search-none', limit),
      repos.insights.top(within, 'helpful', limit),
      repos.insights.top(within, 'not-helpful', limit),
      repos.insights.top(within, 'copy', limit),
      repos.insights.top(within, 'not-found', limit),
    ])
  const indexed =
    none.length > 0 || missing.length > 0 ? await livePages(repos, blobs, project.live_deployment_id) : []
  const viewsOn = new Map(views.map((row) => [row.day, row.total]))
  const visitorsOn = new Map(visitors.map((row) => [row.day, row.total]))
  const feedback = new Map<string, { path: string; helpful: number; notHelpful: number }>()
  for (const row of helpful) feedback.set(row.key, { path: row.key, helpful: row.total, notHelpful: 0 })
  for (const row of notHelpful) {
    const entry = feedback.get(row.key) ?? { path: row.key, helpful: 0, notHelpful: 0 }
    entry.notHelpful = row.total
    feedback.set(row.key, entry)
  }
  const pagePaths = indexed.map((page) => page.u)
  return {
    enabled: await repos.insights.enabled(project.id),
    from: range.from,
    to: range.to,
    days: daysOf(range.from, range.to).map((day) => ({
      day,
      views: viewsOn.get(day) ?? 0,
      visitors: visitorsOn.get(day) ?? 0,
    })),
    pages,
    referrers,
    screens,
    searches,
    searchesWithoutResults: none.map((row) => ({ ...row, closest: closestTitles(row.key, indexed) })),
    // Pages with the most "not helpful" answers first: those are the ones to fix.
    feedback: [...feedback.values()].sort(
      (a, b) => b.notHelpful - a.notHelpful || b.helpful - a.helpful || a.path.localeCompare(b.path),
    ),
    comments: await repos.insights.comments(within, limit),
    copies,
    notFound: missing.map((row) => {
      const destination = closestPath(row.key, pagePaths)
      return {
        ...row,
        redirect:
          destination === undefined ? null : { source: `/${row.key}`, destination: `/${destination}` },
      }
    }),
  }
}
