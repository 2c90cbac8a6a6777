/** Database rows → the API's records (see schemas/api/projects.ts and deployments.ts). */
import type { Deployment, Diagnostic, Project, Shape } from '../schemas/api/index.js'
import type { ServerConfig } from './config.js'
import type { DeploymentRow } from './db/repositories/deployments.js'
import type { ProjectRow } from './db/repositories/projects.js'

/** Local base domains (`localhost:8080`, `*.localhost`, any host with a port) are served over http. */
export const siteScheme = (baseDomain: string): 'http' | 'https' =>
  /(^|\.)localhost(:\d+)?$/.test(baseDomain) || /:\d+$/.test(baseDomain) ? 'http' : 'https'

export const siteUrl = (config: Pick<ServerConfig, 'baseDomain'>, slug: string): string =>
  `${siteScheme(config.baseDomain)}://${slug}.${config.baseDomain}/`

/** A deployment's preview site: its random preview token, never its id, names the host. */
export const previewUrl = (config: Pick<ServerConfig, 'baseDomain'>, previewToken: string, slug: string) =>
  `${siteScheme(config.baseDomain)}://${previewToken}--${slug}.${config.baseDomain}/`

export function presentProject(config: ServerConfig, row: ProjectRow): Shape<typeof Project> {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    deploymentName: row.deployment_name,
    url: siteUrl(config, row.slug),
    liveDeploymentId: row.live_deployment_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/**
 * A deployment as the API shows it; `diagnostics` (its first few, see `DIAGNOSTICS_SHOWN`) only for a
 * single deployment: lists carry the counts.
 */
export function presentDeployment(
  config: ServerConfig,
  project: ProjectRow,
  row: DeploymentRow,
  diagnostics?: Shape<typeof Diagnostic>[],
): Shape<typeof Deployment> {
  const live = project.live_deployment_id === row.id
  const stats = row.stats
    ? (JSON.parse(row.stats) as NonNullable<Shape<typeof Deployment>['stats']>)
    : undefined
  return {
    id: row.id,
    projectId: row.project_id,
    status: row.status,
    live,
    branch: row.branch,
    commitMessage: row.commit_message,
    environment: row.environment,
    url: live ? siteUrl(config, project.slug) : null,
    previewUrl: row.status === 'ready' ? previewUrl(config, row.preview_token, project.slug) : null,
    fileCount: Number(row.file_count),
    totalBytes: Number(row.total_bytes),
    ...(diagnostics ? { diagnostics } : {}),
    diagnosticCount: Number(row.diagnostic_count),
    errorCount: Number(row.error_count),
    timings: JSON.parse(row.timings) as Shape<typeof Deployment>['timings'],
    ...(stats ? { stats } : {}),
    ...(row.commit_sha ? { commitSha: row.commit_sha, commitAuthor: row.commit_author } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
