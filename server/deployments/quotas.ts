/**
 * Quotas checked when a deployment is created: its listed bytes (`ManifestTooLarge`), and the
 * deployments, files and bytes a project and its owner created in the last 24 hours (`QuotaExceeded`),
 * each saying which limit was reached and which server setting raises it.
 */
import type { DeploymentQuotas } from '../config.js'
import type { Repositories } from '../db/repositories/index.js'
import type { ProjectRow } from '../db/repositories/projects.js'
import { ManifestTooLarge, QuotaExceeded } from './errors.js'

const day = 24 * 3600_000

export async function checkDeploymentQuotas(
  repos: Repositories,
  quotas: DeploymentQuotas,
  project: ProjectRow,
  manifest: { files: number; bytes: number },
  now: number,
): Promise<void> {
  if (manifest.bytes > quotas.maxDeploymentBytes) {
    throw new ManifestTooLarge('bytes', quotas.maxDeploymentBytes, manifest.bytes)
  }
  const since = new Date(now - day).toISOString()
  const ofProject = await repos.deployments.usageSince({ projectId: project.id }, since)
  if (ofProject.deployments + 1 > quotas.projectDeploymentsPerDay) {
    throw new QuotaExceeded(
      `Project "${project.slug}" created ${ofProject.deployments} deployments in the last 24 hours, the most allowed`,
      {
        scope: 'project',
        unit: 'deployments',
        limit: quotas.projectDeploymentsPerDay,
        setting: '--project-deployments-per-day',
      },
    )
  }
  const ofOwner = await repos.deployments.usageSince({ ownerId: project.owner_id }, since)
  const limits = [
    [ofOwner.deployments + 1, quotas.userDeploymentsPerDay, 'deployments', '--user-deployments-per-day'],
    [ofOwner.files + manifest.files, quotas.userFilesPerDay, 'files', '--user-files-per-day'],
    [ofOwner.bytes + manifest.bytes, quotas.userBytesPerDay, 'bytes', '--user-bytes-per-day'],
  ] as const
  for (const [wanted, limit, unit, setting] of limits) {
    if (wanted > limit) {
      throw new QuotaExceeded(
        `This deployment would bring the project owner's ${unit} in the last 24 hours to ${wanted}, over the quota`,
        { scope: 'owner', unit, limit, setting },
      )
    }
  }
}
