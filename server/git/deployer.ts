/**
 * Runs the queue of Git deliveries, one at a time: fetch the pushed commit, read its docs directory
 * the way `docsctl push` reads one, and hand it to the deployment service, as `docsctl push` does.
 * The production branch promotes; a preview branch gets `<branch>--<slug>.<base_domain>`; a deleted
 * preview branch loses its alias. A GitHub App reports each build as a commit status. A pull/merge
 * request's head commit is fetched from the forge's request ref and previewed at `pr-<n>--<slug>`
 * (a fork's only when the project allows it); its change report goes to the forge
 * (request-reporting.ts), and closing the request removes the preview.
 *
 *   webhook route ──enqueue (durable row)──▶ kick() ──takeNext()──▶ #deploy ──▶ deploymentService
 */
import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { lazyPackage } from '../../lib/lazy-package.js'
import type { DeploymentRow } from '../db/repositories/deployments.js'
import type { GitConnectionRow, GitDeliveryRow } from '../db/repositories/git.js'
import type { ProjectRow } from '../db/repositories/projects.js'
import { DeploymentRefused, ManifestInvalid, ManifestTooLarge } from '../deployments/errors.js'
import { previewUrl, siteScheme, siteUrl } from '../presenters.js'
import {
  BlobReader,
  CommitContentError,
  type DocsFile,
  type DocsFolder,
  findDocsFolder,
  listDocsFolder,
} from './commit-files.js'
import { FetchError, fetchFailedDetail, Remote } from './fetch-commit.js'
import { setGiteaStatus, setGitLabStatus } from './forge-statuses.js'
import type { CommitStatus, GitHubApp } from './github-app.js'
import { hostAccess } from './hosts.js'
import {
  branchSlug,
  isZeroSha,
  matchesBranchPattern,
  pullRequestKey,
  pullRequestRef,
  repositoryFullName,
} from './repository.js'
import { RequestReporting } from './request-reporting.js'
import {
  giteaRequestForge,
  githubRequestForge,
  gitlabRequestForge,
  type RequestForge,
} from './request-reports.js'

/** Read only when a pushed commit's docs.json must name its project. */
const jsoncParser = lazyPackage<typeof import('jsonc-parser')>('jsonc-parser')

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
export function projectClaim(
  docsJson: string | undefined,
  slug: string,
  mustName: boolean,
): 'this project' | 'another project' | 'unnamed' {
  let named: unknown
  try {
    named = (jsoncParser().parse(docsJson ?? '') as { slug?: unknown } | undefined)?.slug
  } catch {
    named = undefined
  }
  if (typeof named === 'string' && named !== '') return named === slug ? 'this project' : 'another project'
  return mustName ? 'unnamed' : 'this project'
}

/** A refusal of the deployment service in the words of a repository's docs folder. */
export function refusalReason(refusal: DeploymentRefused): string {
  if (refusal instanceof ManifestTooLarge && refusal.unit === 'files') {
    return `The docs folder holds ${refusal.listed} files; a deployment holds at most ${refusal.limit}`
  }
  // The first file that breaks a rule, in the folder's order.
  const issue = refusal instanceof ManifestInvalid ? refusal.issues[0] : undefined
  if (issue?.problem === 'size') {
    return `${issue.path} is ${issue.size} bytes, larger than the ${issue.limit}-byte limit of a file (--max-file-bytes); it was not read`
  }
  if (issue?.problem === 'path') return `${issue.path}: the path ${issue.rule}`
  if (issue?.problem === 'duplicate') return `${issue.path}: the path is listed twice`
  return refusal.message
}

/** How the deployer may read a connection's repository and report on its commits. */
type Access =
  | {
      ok: true
      credentials: { username: string; token: string } | undefined
      report: ((status: CommitStatus) => Promise<void>) | undefined
      /** Where a pull/merge request's check run and comment go. */
      requestForge?: RequestForge
    }
  | { ok: false; problem: string }

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
    const pullRequest = delivery.request_number === null ? undefined : delivery.request_number
    if (pullRequest !== undefined) {
      const skipped = await this.#pullRequestSkip(project.id, connection, delivery, pullRequest)
      if (skipped) return
    }
    const role = pullRequest === undefined ? branchRole(connection, delivery.branch) : 'preview'
    if (!role) {
      await repos.git.finish(delivery.id, {
        status: 'skipped',
        detail: `${delivery.branch} is neither the production branch nor a preview branch`,
      })
      return
    }
    if (isZeroSha(delivery.commit_sha) && role === 'production') {
      await repos.git.finish(delivery.id, {
        status: 'skipped',
        detail: `The production branch ${delivery.branch} was deleted; the live site stays`,
      })
      return
    }
    const deployed = await this.#deployedCommit(project, role, delivery.branch)
    if (deployed === delivery.commit_sha) {
      await repos.git.finish(delivery.id, {
        status: 'skipped',
        detail: `${delivery.commit_sha} is already deployed from ${delivery.branch}`,
      })
      return
    }
    const access = await this.#access(connection, delivery)
    if (!access.ok) {
      await repos.git.finish(delivery.id, { status: 'failed', detail: `The repository ${access.problem}` })
      return
    }

    const workDir = await mkdtemp(join(tmpdir(), 'docs-git-'))
    // Nothing is said on the Git server until the commit's docs.json has named this project.
    let claimed = false
    const report = async (status: Omit<CommitStatus, 'context'>) => {
      if (!access.report || !claimed) return
      await access
        .report({ ...status, context: `docs/${project.slug}` })
        .catch((error: unknown) => log.warn({ err: error, deliveryId: delivery.id }, 'commit status failed'))
    }
    let reader: BlobReader | undefined
    try {
      const repositoryDir = join(workDir, 'repository')
      // The branch must still point at the commit: a replayed or late delivery never deploys an old one.
      let head: string | undefined
      try {
        const remote = await Remote.open({
          repositoryUrl: connection.repository_url,
          credentials: access.credentials,
          allowPrivateAddresses: this.app.config.git.allowPrivateAddresses,
          timeoutMs: this.app.config.git.fetchTimeoutSeconds * 1000,
          maxFetchBytes: this.app.config.git.maxFetchBytes,
        })
        head =
          pullRequest === undefined
            ? await remote.branchHead(delivery.branch, workDir)
            : await remote.refHead(pullRequestRef(connection.provider, pullRequest), workDir)
        if (head === delivery.commit_sha) await remote.fetchCommit(delivery.commit_sha, repositoryDir)
      } catch (error) {
        if (!(error instanceof FetchError)) throw error
        log.warn({ deliveryId: delivery.id, reason: error.message }, 'git fetch failed')
        await repos.git.finish(delivery.id, { status: 'failed', detail: fetchFailedDetail })
        return
      }
      if (isZeroSha(delivery.commit_sha)) {
        await this.#removePreview(project.id, delivery, head)
        return
      }
      if (head !== delivery.commit_sha) {
        const what = pullRequest === undefined ? delivery.branch : `Request #${pullRequest}`
        await repos.git.finish(delivery.id, {
          status: 'superseded',
          detail:
            head === undefined
              ? `${what} no longer exists in the repository`
              : `${what} is at ${head} now: only the newest commit of a branch deploys`,
        })
        return
      }
      log.info(
        { deliveryId: delivery.id, projectId: project.id, branch: delivery.branch, sha: delivery.commit_sha },
        'deploying a pushed commit',
      )
      const folder = await findDocsFolder(repositoryDir, delivery.commit_sha, connection.docs_directory)
      if ('problem' in folder) {
        await repos.git.finish(delivery.id, { status: 'failed', detail: folder.problem })
        return
      }
      reader = new BlobReader(repositoryDir)
      let docsFolder: DocsFolder
      try {
        docsFolder = await listDocsFolder(repositoryDir, delivery.commit_sha, folder.path, reader, {
          maxEntries: this.app.config.git.maxTreeEntries,
        })
      } catch (error) {
        if (!(error instanceof CommitContentError)) throw error
        await repos.git.finish(delivery.id, { status: 'failed', detail: error.message })
        return
      }
      if (docsFolder.problems.length > 0)
        log.info(
          { deliveryId: delivery.id, problems: docsFolder.problems },
          'entries of the docs folder left out',
        )
      // Read with the server's own credentials, the repository must say it deploys here.
      const docsJson = docsFolder.files.find((file) => file.path === 'docs.json')
      const claim = projectClaim(
        docsJson && docsJson.size <= this.app.config.maxFileBytes
          ? (await reader.read(docsJson.oid, docsJson.size)).toString('utf8')
          : undefined,
        project.slug,
        access.credentials !== undefined,
      )
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
      const request =
        pullRequest === undefined
          ? undefined
          : await RequestReporting.open(this.app, project, delivery, pullRequest, access.requestForge)
      if (!request?.replacesStatuses)
        await report({ state: 'pending', targetUrl: null, description: 'Building the docs' })
      await request?.started()
      let deployment: DeploymentRow
      try {
        deployment = await this.#deploy(project, delivery, role, docsFolder.files, reader)
      } catch (error) {
        if (!(error instanceof DeploymentRefused)) throw error
        const detail = refusalReason(error)
        log.info({ deliveryId: delivery.id, projectId: project.id, detail }, 'pushed commit refused')
        await repos.git.finish(delivery.id, { status: 'failed', detail })
        if (!request?.replacesStatuses)
          await report({ state: 'failure', targetUrl: null, description: detail })
        await request?.failed(detail)
        return
      }
      const deploymentId = deployment.id
      const ready = deployment.status === 'ready'
      let targetUrl: string | null = null
      if (ready && role === 'preview') {
        await repos.git.setBranchPreview(
          project.id,
          request?.headBranch ?? delivery.branch,
          branchSlug(delivery.branch),
          deploymentId,
        )
        if (pullRequest !== undefined)
          await repos.git.updatePullRequest(project.id, pullRequest, { deployment_id: deploymentId })
        await this.app.siteChanged.project(project.id, 'preview')
        targetUrl = branchPreviewUrl(this.app.config.baseDomain, delivery.branch, project.slug)
      } else if (ready) {
        const fresh = await repos.projects.findById(project.id)
        targetUrl =
          fresh?.live_deployment_id === deploymentId
            ? siteUrl(this.app.config, project.slug)
            : previewUrl(this.app.config, deployment.preview_token, project.slug)
      }
      await repos.git.finish(delivery.id, {
        status: ready ? 'deployed' : 'failed',
        deploymentId,
        detail: ready ? null : (deployment.error ?? 'The build failed; see the deployment’s diagnostics'),
      })
      // A request's report is made before its status says the preview is ready, so both agree.
      const headline = ready && request ? await request.finished(deployment, targetUrl) : undefined
      if (!request?.replacesStatuses)
        await report(
          ready
            ? {
                state: 'success',
                targetUrl,
                description: role === 'production' ? 'Deployed to production' : (headline ?? 'Preview ready'),
              }
            : {
                state: 'failure',
                targetUrl: null,
                description: 'The docs build failed; see its diagnostics',
              },
        )
      if (!ready) await request?.failed('The docs build failed; see its diagnostics')
    } catch (error) {
      await report({ state: 'error', targetUrl: null, description: 'The deployment could not run' })
      throw error
    } finally {
      await reader?.close()
      // The delivery is finished whatever happens here: a folder that will not go is the log's business.
      await rm(workDir, { recursive: true, force: true, maxRetries: 5 }).catch((error: unknown) =>
        log.warn({ err: error, workDir }, 'could not remove a git work folder'),
      )
    }
  }

  /**
   * A request's events before anything is fetched: a closed (or merged) request loses its preview; one
   * from a fork is built only when the project allows it. Answers whether the delivery is finished.
   */
  async #pullRequestSkip(
    projectId: string,
    connection: GitConnectionRow,
    delivery: GitDeliveryRow,
    number: number,
  ): Promise<boolean> {
    const { repos } = this.app
    if (delivery.request_action === 'close') {
      await repos.git.removeBranchPreview(projectId, pullRequestKey(number))
      await repos.git.updatePullRequest(projectId, number, { deployment_id: null })
      await this.app.siteChanged.project(projectId, 'preview')
      await repos.git.finish(delivery.id, {
        status: 'skipped',
        detail: `Request #${number} was closed; its preview was removed`,
      })
      return true
    }
    const recorded = await repos.git.pullRequest(projectId, number)
    if (recorded?.state === 'closed') {
      await repos.git.finish(delivery.id, { status: 'superseded', detail: `Request #${number} is closed` })
      return true
    }
    if (delivery.from_fork === 1 && connection.build_fork_requests !== 1) {
      await repos.git.finish(delivery.id, {
        status: 'skipped',
        detail: `Request #${number} comes from a fork; the project does not build requests from forks`,
      })
      return true
    }
    return false
  }

  /** A deleted preview branch loses its preview, unless the repository has the branch again. */
  async #removePreview(projectId: string, delivery: GitDeliveryRow, head: string | undefined): Promise<void> {
    const { repos } = this.app
    if (head !== undefined) {
      await repos.git.finish(delivery.id, {
        status: 'skipped',
        detail: `Branch ${delivery.branch} exists (at ${head}); its preview stays`,
      })
      return
    }
    await repos.git.removeBranchPreview(projectId, branchSlug(delivery.branch))
    await this.app.siteChanged.project(projectId, 'preview')
    await repos.git.finish(delivery.id, {
      status: 'skipped',
      detail: `Branch ${delivery.branch} was deleted; its preview was removed`,
    })
  }

  /** The commit a branch's site serves now: the live deployment's, or the branch preview's. */
  async #deployedCommit(project: ProjectRow, role: 'production' | 'preview', branch: string) {
    const { repos } = this.app
    const deploymentId =
      role === 'production'
        ? project.live_deployment_id
        : await repos.git.branchPreview(project.id, branchSlug(branch))
    if (!deploymentId) return undefined
    return (await repos.deployments.findById(deploymentId))?.commit_sha ?? undefined
  }

  /**
   * How to read the connection's repository and report on its commits, per provider. A provider's
   * credentials go only to its own host; a repository elsewhere is read without them, if allowed.
   */
  async #access(connection: GitConnectionRow, delivery: GitDeliveryRow): Promise<Access> {
    const { git } = this.app.config
    const sha = delivery.commit_sha
    const url = connection.repository_url
    const host = hostAccess(url, connection.provider, git)
    if (!host.ok) return host
    if (!host.providerHost) return { ok: true, credentials: undefined, report: undefined }
    if (connection.provider === 'github') {
      const installationId = delivery.github_installation_id ?? connection.github_installation_id
      if (!this.github || !installationId) return { ok: true, credentials: undefined, report: undefined }
      const github = this.github
      const token = await github.installationToken(installationId)
      return {
        ok: true,
        credentials: { username: 'x-access-token', token },
        report: (status) => github.setCommitStatus(token, repositoryFullName(url), sha, status),
        requestForge: githubRequestForge({ apiUrl: git.github.apiUrl, token }, repositoryFullName(url)),
      }
    }
    if (connection.provider === 'gitlab' && git.gitlab.token) {
      const api = { apiUrl: git.gitlab.apiUrl, token: git.gitlab.token }
      return {
        ok: true,
        credentials: { username: 'oauth2', token: api.token },
        report: (status) => setGitLabStatus(api, url, sha, status),
        requestForge: gitlabRequestForge(api, url),
      }
    }
    if (connection.provider === 'gitea' && git.gitea.token && git.gitea.apiUrl) {
      const api = { apiUrl: git.gitea.apiUrl, token: git.gitea.token }
      return {
        ok: true,
        credentials: { username: 'docs-server', token: api.token },
        report: (status) => setGiteaStatus(api, url, sha, status),
        requestForge: giteaRequestForge(api, url),
      }
    }
    return { ok: true, credentials: undefined, report: undefined }
  }

  /**
   * The deployment service's create → receive → finalize, on the commit's files. Every check is made
   * on the sizes Git lists before a file is read; files are streamed out of Git twice (to hash them,
   * then to store the ones the blob store lacks), never held whole. Answers the deployment once its
   * build ended (or the wait ran out).
   */
  async #deploy(
    project: ProjectRow,
    delivery: GitDeliveryRow,
    role: 'production' | 'preview',
    files: DocsFile[],
    reader: BlobReader,
  ): Promise<DeploymentRow> {
    const { repos, config, deploymentService: deployments } = this.app
    await deployments.check(project, files)
    // One blob of Git is one sha256, however many paths name it.
    const sha256ByOid = new Map<string, string>()
    const fileBySha256 = new Map<string, DocsFile>()
    const manifest: { path: string; sha256: string; size: number }[] = []
    for (const file of files) {
      let sha256 = sha256ByOid.get(file.oid)
      if (sha256 === undefined) {
        const hash = createHash('sha256')
        for await (const chunk of reader.chunks(file.oid, file.size)) hash.update(chunk)
        sha256 = hash.digest('hex')
        sha256ByOid.set(file.oid, sha256)
        fileBySha256.set(sha256, file)
      }
      manifest.push({ path: file.path, sha256, size: file.size })
    }
    const { deployment, missing } = await deployments.create(project, {
      branch: delivery.branch,
      commitMessage: delivery.commit_message,
      environment: role,
      commit: { sha: delivery.commit_sha, author: delivery.commit_author },
      files: manifest,
    })
    await repos.git.setDeployment(delivery.id, deployment.id)
    // Only what no earlier deployment of the project stored: unchanged files are not stored twice.
    for (const sha256 of missing) {
      const file = fileBySha256.get(sha256)
      if (!file) continue
      const bytes = Readable.from(reader.chunks(file.oid, file.size), { objectMode: false })
      const stored = await deployments.receive(deployment, { sha256, size: file.size }, bytes)
      if (!stored.ok) throw new Error(`${file.path} changed while it was stored (${stored.reason})`)
    }
    // Waits the whole build, like a finalize call that asks to.
    return deployments.finalize(project, deployment, {
      promote: role === 'production',
      waitMs: (config.buildTimeoutSeconds + 60) * 1000,
    })
  }
}
