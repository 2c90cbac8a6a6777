/**
 * Quotas checked when a deployment is created: its listed bytes (413), and the deployments, files and
 * bytes a project and its owner created in the last 24 hours (429), each with a message that says
 * which limit was reached and which server setting raises it.
 */
import type { DeploymentQuotas } from '../config.js'
import type { Repositories } from '../db/repositories/index.js'
import type { ProjectRow } from '../db/repositories/projects.js'
import { ApiError, tooLarge } from '../errors.js'

const day = 24 * 3600_000

export async function checkDeploymentQuotas(
  repos: Repositories,
  quotas: DeploymentQuotas,
  project: ProjectRow,
  manifest: { files: number; bytes: number },
  now = Date.now(),
): Promise<void> {
  if (manifest.bytes > quotas.maxDeploymentBytes) {
    throw tooLarge(
      `A deployment may list at most ${quotas.maxDeploymentBytes} bytes; this one lists ${manifest.bytes}`,
      [
        {
          path: 'body/files',
          message: `more than ${quotas.maxDeploymentBytes} bytes in total (--max-deployment-bytes)`,
        },
      ],
    )
  }
  const since = new Date(now - day).toISOString()
  const ofProject = await repos.deployments.usageSince({ projectId: project.id }, since)
  if (ofProject.deployments + 1 > quotas.projectDeploymentsPerDay) {
    throw quotaReached(
      `Project "${project.slug}" created ${ofProject.deployments} deployments in the last 24 hours, the most allowed`,
      `at most ${quotas.projectDeploymentsPerDay} deployments a day per project (--project-deployments-per-day)`,
    )
  }
  const ofOwner = await repos.deployments.usageSince({ ownerId: project.owner_id }, since)
  const limits: [number, number, string, string][] = [
    [ofOwner.deployments + 1, quotas.userDeploymentsPerDay, 'deployments', '--user-deployments-per-day'],
    [ofOwner.files + manifest.files, quotas.userFilesPerDay, 'files', '--user-files-per-day'],
    [ofOwner.bytes + manifest.bytes, quotas.userBytesPerDay, 'bytes', '--user-bytes-per-day'],
  ]
  for (const [wanted, limit, what, flag] of limits) {
    if (wanted > limit) {
      throw quotaReached(
        `This deployment would bring the project owner's ${what} in the last 24 hours to ${wanted}, over the quota`,
        `at most ${limit} ${what} a day per user (${flag})`,
      )
    }
  }
}

const quotaReached = (message: string, limit: string): ApiError =>
  new ApiError(429, `${message}; try again later`, [{ path: 'body', message: limit }], {
    'retry-after': '3600',
  })
