/**
 * Runs the queue of Git deliveries, one at a time: fetch the pushed commit, read its docs directory
 * the way `docsctl push` reads one, and hand it to the same manifest → blobs → build → promote flow.
 * The production branch promotes; a preview branch gets `<branch>--<slug>.<base_domain>`; a deleted
 * preview branch loses its alias. A GitHub App reports each build as a commit status.
 *
 *   webhook route ──enqueue (durable row)──▶ kick() ──takeNext()──▶ #deploy ──▶ builds.enqueue
 */
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve, sep } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { parse as parseJsonc } from 'jsonc-parser'
import { readSiteFiles, SITE_DIR_CANDIDATES } from '../../lib/site-dir.js'
import { checkDeploymentQuotas } from '../builds/quotas.js'
import type { GitConnectionRow, GitDeliveryRow } from '../db/repositories/git.js'
import type { ProjectRow } from '../db/repositories/projects.js'
import { ApiError } from '../errors.js'
import { previewUrl, siteScheme, siteUrl } from '../presenters.js'
import { manifestPathProblem } from '../routes/deployments.js'
import { FetchError, fetchCommit } from './fetch-commit.js'
import { setGiteaStatus, setGitLabStatus } from './forge-statuses.js'
import type { CommitStatus, GitHubApp } from './github-app.js'
import { branchSlug, isZeroSha, matchesBranchPattern, repositoryFullName } from './repository.js'

/** The host of a branch's preview: `<branch-slug>--<slug>.<base_domain>`. */
export const branchPreviewUrl = (baseDomain: string, branch: string, slug: string): string =>
  `${siteScheme(baseDomain)}://${branchSlug(branch)}--${slug}.${baseDomain}/`

export type BranchRole = 'production' | 'preview' | undefined

export function branchRole(connection: GitConnectionRow, branch: string): BranchRole {
  if (branch === connection.production_branch) return 'production'
  const patterns = JSON.parse(connection.preview_branches) as string[]
  return patterns.some((pattern) => matchesBranchPattern(pattern, branch)) ? 'preview' : undefined
}

/**
 * Whether the commit's docs.json says it deploys to `slug`. A GitHub App reads every repository it is
 * installed on, so anyone could connect someone else's repository URL: the repository's own docs.json
 * naming the project is the proof that its owners mean to deploy there (slugs are unique). Other
 * providers deliver only what their repository's admins configured, so an absent slug is fine there.
 */
export async function projectClaim(
  docsDir: string,
  slug: string,
  mustName: boolean,
): Promise<'this project' | 'another project' | 'unnamed'> {
  let named: unknown
  try {
    named = (parseJsonc(await readFile(join(docsDir, 'docs.json'), 'utf8')) as { slug?: unknown } | undefined)
      ?.slug
  } catch {
    named = undefined
  }
  if (typeof named === 'string' && named !== '') return named === slug ? 'this project' : 'another project'
  return mustName ? 'unnamed' : 'this project'
}

export class GitDeployer {
  #loop: Promise<void> | undefined
  #again = false
  #closed = false

  constructor(
    private readonly app: FastifyInstance,
    private readonly github: GitHubApp | undefined,
  ) {}

  /** Put back what a stopped server left running, then work through the queue. */
  async start(): Promise<void> {
    const requeued = await this.app.repos.git.requeueInterrupted({ all: this.app.dbEngine === 'sqlite' })
    if (requeued > 0) this.app.log.info({ requeued }, 'git deliveries interrupted by a restart queued again')
    this.kick()
  }

  /** How long a taken delivery is this runner's: a fetch, a build, and a margin. */
  get #leaseMs(): number {
    const { git, buildTimeoutSeconds } = this.app.config
    return (git.fetchTimeoutSeconds + buildTimeoutSeconds + 60) * 1000
  }

  /** Work through the queue now (a no-op while it is already being worked through). */
  kick(): void {
    if (this.#closed) return
    if (this.#loop) {
      this.#again = true
      return
    }
    this.#loop = this.#drain().finally(() => {
      this.#loop = undefined
      if (this.#again) {
        this.#again = false
        this.kick()
      }
    })
  }

  /** Resolves when the queue is empty and nothing runs (tests and shutdown wait on it). */
  async idle(): Promise<void> {
    while (this.#loop) await this.#loop
  }

  async close(): Promise<void> {
    this.#closed = true
    await this.#loop
  }

  async #drain(): Promise<void> {
    for (;;) {
      if (this.#closed) return
      let delivery: GitDeliveryRow | undefined
      try {
        delivery = await this.app.repos.git.takeNext(this.#leaseMs)
      } catch (error) {
        this.app.log.error({ err: error }, 'could not read the git delivery queue')
        return
      }
      if (!delivery) return
      try {
        await this.#run(delivery)
      } catch (error) {
        this.app.log.error({ err: error, deliveryId: delivery.id }, 'git delivery failed')
        await this.app.repos.git.finish(delivery.id, {
          status: 'failed',
          detail: error instanceof Error ? error.message : String(error),
        })
      }
    }
  }

  async #run(delivery: GitDeliveryRow): Promise<void> {
    const { repos, log } = this.app
    const connection = await repos.git.connectionOf(delivery.project_id)
    const project = await repos.projects.findById(delivery.project_id)
    if (!connection || !project) {
      await repos.git.finish(delivery.id, { status: 'skipped', detail: 'The project has no Git connection' })
      return
    }
    const role = branchRole(connection, delivery.branch)
    if (!role) {
      await repos.git.finish(delivery.id, {
        status: 'skipped',
        detail: `${delivery.branch} is neither the production branch nor a preview branch`,
      })
      return
    }
    if (isZeroSha(delivery.commit_sha)) {
      if (role === 'preview') {
        await repos.git.removeBranchPreview(project.id, branchSlug(delivery.branch))
        await this.app.siteChanges.publish({ projectId: project.id })
      }
      await repos.git.finish(delivery.id, {
        status: 'skipped',
        detail:
          role === 'preview'
            ? `Branch ${delivery.branch} was deleted; its preview was removed`
            : `The production branch ${delivery.branch} was deleted; the live site stays`,
      })
      return
    }
    log.info(
      { deliveryId: delivery.id, projectId: project.id, branch: delivery.branch, sha: delivery.commit_sha },
      'deploying a pushed commit',
    )

    const access = await this.#access(connection, delivery)
    // Nothing is said on the Git server until the commit's docs.json has named this project.
    let claimed = false
    const report = async (status: Omit<CommitStatus, 'context'>) => {
      if (!access.report || !claimed) return
      await access
        .report({ ...status, context: `docs/${project.slug}` })
        .catch((error: unknown) => log.warn({ err: error, deliveryId: delivery.id }, 'commit status failed'))
    }
    const workDir = await mkdtemp(join(tmpdir(), 'docs-git-'))
    try {
      const checkout = join(workDir, 'checkout')
      try {
        await fetchCommit({
          repositoryUrl: connection.repository_url,
          sha: delivery.commit_sha,
          credentials: access.credentials,
          dir: checkout,
          timeoutMs: this.app.config.git.fetchTimeoutSeconds * 1000,
        })
      } catch (error) {
        if (!(error instanceof FetchError)) throw error
        await repos.git.finish(delivery.id, { status: 'failed', detail: error.message })
        return
      }
      const docsDir = await this.#docsDirectory(checkout, connection.docs_directory)
      if ('problem' in docsDir) {
        await repos.git.finish(delivery.id, { status: 'failed', detail: docsDir.problem })
        return
      }
      // Read with the server's own credentials, the repository must say it deploys here.
      const claim = await projectClaim(docsDir.path, project.slug, access.credentials !== undefined)
      if (claim === 'another project') {
        // Someone connected a repository that deploys elsewhere: forget the push, say nothing to GitHub.
        log.warn({ deliveryId: delivery.id, projectId: project.id }, 'docs.json names another project')
        await repos.git.forget(delivery.id)
        return
      }
      if (claim === 'unnamed') {
        const detail = `docs.json must name this project: add "slug": "${project.slug}" to it`
        await repos.git.finish(delivery.id, { status: 'failed', detail })
        return
      }
      claimed = true
      await report({ state: 'pending', targetUrl: null, description: 'Building the docs' })
      const deploymentId = await this.#deploy(project, delivery, role, docsDir.path)
      const deployment = await repos.deployments.findById(deploymentId)
      const ready = deployment?.status === 'ready'
      let targetUrl: string | null = null
      if (ready && role === 'preview') {
        await repos.git.setBranchPreview(
          project.id,
          delivery.branch,
          branchSlug(delivery.branch),
          deploymentId,
        )
        await this.app.siteChanges.publish({ projectId: project.id })
        targetUrl = branchPreviewUrl(this.app.config.baseDomain, delivery.branch, project.slug)
      } else if (ready && deployment) {
        const fresh = await repos.projects.findById(project.id)
        targetUrl =
          fresh?.live_deployment_id === deploymentId
            ? siteUrl(this.app.config, project.slug)
            : previewUrl(this.app.config, deployment.preview_token, project.slug)
      }
      await repos.git.finish(delivery.id, {
        status: ready ? 'deployed' : 'failed',
        deploymentId,
        detail: ready ? null : (deployment?.error ?? 'The build failed; see the deployment’s diagnostics'),
      })
      await report(
        ready
          ? {
              state: 'success',
              targetUrl,
              description: role === 'production' ? 'Deployed to production' : 'Preview ready',
            }
          : { state: 'failure', targetUrl: null, description: 'The docs build failed; see its diagnostics' },
      )
    } catch (error) {
      await report({ state: 'error', targetUrl: null, description: 'The deployment could not run' })
      throw error
    } finally {
      await rm(workDir, { recursive: true, force: true })
    }
  }

  /** How to read the connection's repository and report on its commits, per provider. */
  async #access(
    connection: GitConnectionRow,
    delivery: GitDeliveryRow,
  ): Promise<{
    credentials: { username: string; token: string } | undefined
    report: ((status: CommitStatus) => Promise<void>) | undefined
  }> {
    const { git } = this.app.config
    const sha = delivery.commit_sha
    const url = connection.repository_url
    if (connection.provider === 'github') {
      const installationId = delivery.github_installation_id ?? connection.github_installation_id
      if (!this.github || !installationId) return { credentials: undefined, report: undefined }
      const github = this.github
      const token = await github.installationToken(installationId)
      return {
        credentials: { username: 'x-access-token', token },
        report: (status) => github.setCommitStatus(token, repositoryFullName(url), sha, status),
      }
    }
    if (connection.provider === 'gitlab' && git.gitlab.token) {
      const api = { apiUrl: git.gitlab.apiUrl, token: git.gitlab.token }
      return {
        credentials: { username: 'oauth2', token: api.token },
        report: (status) => setGitLabStatus(api, url, sha, status),
      }
    }
    if (connection.provider === 'gitea' && git.gitea.token && git.gitea.apiUrl) {
      const api = { apiUrl: git.gitea.apiUrl, token: git.gitea.token }
      return {
        credentials: { username: 'docs-server', token: api.token },
        report: (status) => setGiteaStatus(api, url, sha, status),
      }
    }
    return { credentials: undefined, report: undefined }
  }

  /** The configured docs directory, else the first of `.`, `docs`, `apps/docs` holding docs.json. */
  async #docsDirectory(
    checkout: string,
    configured: string | null,
  ): Promise<{ path: string } | { problem: string }> {
    const root = await realpath(checkout)
    const inside = async (relativePath: string): Promise<string | undefined> => {
      try {
        const real = await realpath(resolve(root, relativePath))
        return real === root || real.startsWith(root + sep) ? real : undefined
      } catch {
        return undefined
      }
    }
    if (configured !== null) {
      const path = await inside(configured)
      return path ? { path } : { problem: `The docs directory ${configured} is not in the commit` }
    }
    for (const candidate of SITE_DIR_CANDIDATES) {
      const path = await inside(join(candidate, 'docs.json'))
      if (path) return { path: resolve(path, '..') }
    }
    return {
      problem: `No docs.json in ${SITE_DIR_CANDIDATES.join(', ')}; set the docs directory of the Git connection`,
    }
  }

  /** The manifest → blobs → build → promote flow of `docsctl push`, on the checked-out files. */
  async #deploy(
    project: ProjectRow,
    delivery: GitDeliveryRow,
    role: 'production' | 'preview',
    docsDir: string,
  ): Promise<string> {
    const { repos, blobs, config } = this.app
    const { files } = await readSiteFiles(docsDir)
    const bySha = new Map<string, Uint8Array>()
    const manifest = [...files].map(([path, bytes]) => {
      const sha256 = createHash('sha256').update(bytes).digest('hex')
      bySha.set(sha256, bytes)
      return { path, sha256, size: bytes.length }
    })
    // The checks `POST …/deployments` makes of a pushed manifest, said in the repository's words.
    if (manifest.length > config.maxFilesPerDeployment)
      throw new Error(
        `The docs folder holds ${manifest.length} files; a deployment holds at most ${config.maxFilesPerDeployment}`,
      )
    for (const entry of manifest) {
      const problem = manifestPathProblem(entry.path)
      if (problem) throw new Error(`${entry.path}: the path ${problem}`)
      if (entry.size > config.maxFileBytes)
        throw new Error(`${entry.path} is larger than the ${config.maxFileBytes}-byte limit of a file`)
    }
    const bytes = manifest.reduce((sum, entry) => sum + entry.size, 0)
    try {
      await checkDeploymentQuotas(repos, config.quotas, project, { files: manifest.length, bytes })
    } catch (error) {
      if (error instanceof ApiError) throw new Error(error.message)
      throw error
    }
    const { deployment, missing } = await repos.deployments.create({
      projectId: project.id,
      branch: delivery.branch,
      commitMessage: delivery.commit_message,
      environment: role,
      commit: { sha: delivery.commit_sha, author: delivery.commit_author },
      files: manifest,
      blobExists: (sha256) => blobs.touch(sha256),
    })
    await repos.git.setDeployment(delivery.id, deployment.id)
    // Only what no earlier deployment of the project stored: unchanged files are not stored twice.
    for (const sha256 of missing) {
      const bytes = bySha.get(sha256)
      if (bytes) await blobs.put(bytes)
      await repos.deployments.markReceived(deployment.id, sha256)
    }
    // Queued for any replica's workers; wait for it like a finalize call that waits the whole build.
    if (await this.app.builds.enqueue(project, deployment, role === 'production', 0))
      await this.app.builds.settled(deployment.id, (this.app.config.buildTimeoutSeconds + 60) * 1000)
    return deployment.id
  }
}
