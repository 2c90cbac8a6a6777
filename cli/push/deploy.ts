/**
 * One deployment, start to finish: manifest → create → upload what is missing → finalize → wait for
 * the build. The site goes live only at finalize, so a push interrupted before it changes nothing.
 */
import { type ApiClient, ApiError, type Deployment, type ManifestEntry } from '../api.js'
import { hashSite } from './manifest.js'
import type { PushPhases } from './phases.js'
import type { PushReporter } from './progress.js'
import { formatBytes } from './progress.js'
import { planUpload, uploadMissing } from './upload.js'

export interface PushResult {
  deployment: Deployment
  /** Files and bytes actually sent (the rest the server already held). */
  uploadedFiles: number
  uploadedBytes: number
  totalFiles: number
  totalBytes: number
  /** The server's message for a failed build. */
  error?: string
}

export interface DeployInput {
  client: ApiClient
  slug: string
  files: ReadonlyMap<string, Uint8Array>
  branch: string
  commitMessage?: string | undefined
  environment?: string | undefined
  reporter: PushReporter
  /** Times the upload and build phases (and live, once it is) when given. */
  phases?: PushPhases
  /** Make it live once built (default); false leaves the live site alone and gives a preview URL. */
  promote?: boolean
  /** Wait for the build to finish (default); false returns as soon as the build has started. */
  wait?: boolean
  /** Longest wait for a build after finalize answers 202; default 10 minutes. */
  buildTimeoutMs?: number
  pollIntervalMs?: number
}

export async function deploy(input: DeployInput): Promise<PushResult> {
  const { client, slug, reporter } = input
  const site = hashSite(input.files)
  const { deployment, missing } = await client
    .createDeployment(slug, {
      branch: input.branch,
      ...(input.commitMessage === undefined ? {} : { commitMessage: input.commitMessage }),
      // A push that is not made live is a preview, as a Git preview branch's deployment is.
      ...(input.environment === undefined
        ? input.promote === false
          ? { environment: 'preview' }
          : {}
        : { environment: input.environment }),
      files: site.entries,
    })
    .catch((error: unknown) => {
      throw error instanceof ApiError ? withManifestPaths(error, site.entries) : error
    })
  reporter.line(
    `Deployment ${deployment.id}: ${site.entries.length} files (${formatBytes(site.totalBytes)}), branch ${input.branch}`,
  )

  const plan = planUpload(site, missing)
  if (plan.files === 0) reporter.line('Nothing to upload: the server already has every file.')
  else {
    const progress = reporter.startUpload(plan.files, plan.bytes)
    try {
      await uploadMissing({ client, slug, deploymentId: deployment.id, plan, progress })
    } finally {
      progress.stop()
    }
    reporter.line(`Uploaded ${plan.files} file${plan.files === 1 ? '' : 's'} (${formatBytes(plan.bytes)}).`)
  }

  if (input.phases)
    reporter.phase(
      input.phases.end(
        'upload',
        `${plan.files} of ${site.entries.length} files sent (${formatBytes(plan.bytes)})`,
      ),
    )

  const build = reporter.startBuild()
  try {
    const wait = input.wait ?? true
    let answer = await client.finalize(slug, deployment.id, {
      promote: input.promote ?? true,
      waitSeconds: wait ? 20 : 0,
    })
    let current = answer.deployment
    const deadline = Date.now() + (input.buildTimeoutMs ?? 600_000)
    while (wait && (current.status === 'building' || current.status === 'uploading')) {
      if (Date.now() > deadline)
        throw new Error(`the build of ${deployment.id} is still running; check it later with the API`)
      await new Promise((resolve) => setTimeout(resolve, input.pollIntervalMs ?? 1000))
      current = await client.getDeployment(slug, deployment.id)
      build.update(current.status)
      answer = { status: 200, deployment: current }
    }
    build.stop()
    if (input.phases && current.status !== 'building' && current.status !== 'uploading') {
      const { stats } = current
      const rendered = stats
        ? `, ${stats.pagesRendered} of ${stats.pagesRendered + stats.pagesReused} pages rendered`
        : ''
      reporter.phase(input.phases.end('build', `${current.status}${rendered}`))
      if (current.status === 'ready')
        reporter.phase(input.phases.end('live', current.live ? 'live' : 'preview ready'))
    }
    return {
      deployment: current,
      uploadedFiles: plan.files,
      uploadedBytes: plan.bytes,
      totalFiles: site.entries.length,
      totalBytes: site.totalBytes,
      ...(answer.error === undefined ? {} : { error: answer.error }),
    }
  } finally {
    build.stop()
  }
}

/** `body/files/3/size` means nothing to an author; name the file instead. */
function withManifestPaths(error: ApiError, entries: readonly ManifestEntry[]): ApiError {
  const issues = error.issues.map((issue) => {
    const match = /^(?:body\/)?files\/(\d+)(?:\/\w+)?$/.exec(issue.path)
    const entry = match ? entries[Number(match[1])] : undefined
    return entry ? { path: entry.path, message: issue.message } : issue
  })
  return new ApiError(error.status, error.message, issues, error.body)
}
