/**
 * `GET/PUT/DELETE /projects/:projectId/git`: a project's Git connection (user tokens only, like every
 * setting of a project: a deploy key may not change where its project deploys from). A repository must
 * be on the host of a provider the server is set up for, or one `--git-allow-hosts` lists. The answer
 * holds the webhook to configure and the latest deliveries.
 */
import {
  errorResponses,
  GitConnectionUpdate,
  type GitDelivery,
  GitSettings,
  noContent,
  projectIdParams,
  ref,
  type Shape,
} from '../../schemas/api/index.js'
import { requireProjectAccess } from '../auth/actor.js'
import type { GitConnectionRow, GitDeliveryRow } from '../db/repositories/git.js'
import { badRequest, type Issue, notFound } from '../errors.js'
import { hostAccess } from '../git/hosts.js'
import {
  branchProblem,
  docsDirectoryIssues,
  patternProblem,
  repositoryUrlProblem,
} from '../git/repository.js'
import { webhookSecretOf } from '../git/secrets.js'
import type { ApiRoutes } from '../schemas.js'

/** A listed delivery (recentDeliveries never lists `foreign` ones). */
export const presentDelivery = (
  row: GitDeliveryRow & { status: Exclude<GitDeliveryRow['status'], 'foreign'> },
): Shape<typeof GitDelivery> => ({
  id: row.id,
  event: row.event,
  branch: row.branch,
  commitSha: row.commit_sha,
  // Shown once the commit's docs.json has claimed the project (a deployment exists): until then the
  // push may be of someone else's repository, whose commit messages are not this owner's to read.
  commitMessage: row.deployment_id ? row.commit_message : null,
  commitAuthor: row.deployment_id ? row.commit_author : null,
  status: row.status,
  deploymentId: row.deployment_id,
  detail: row.detail,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

export const gitRoutes: ApiRoutes<{ webhookKey: string }> = async (app, { webhookKey }) => {
  const { repos, config } = app
  const publicUrl = config.signIn.publicUrl

  const webhookOf = (connection: GitConnectionRow) =>
    connection.provider === 'github'
      ? {
          url: `${publicUrl}/webhooks/github`,
          secret: null,
          events: ['push', 'pull_request', 'installation'],
        }
      : connection.provider === 'gitlab'
        ? {
            url: `${publicUrl}/webhooks/gitlab/${connection.project_id}`,
            secret: webhookSecretOf(webhookKey, connection.project_id),
            events: ['Push events', 'Merge request events'],
          }
        : {
            url: `${publicUrl}/webhooks/gitea/${connection.project_id}`,
            secret: webhookSecretOf(webhookKey, connection.project_id),
            events: ['push', 'delete', 'pull_request'],
          }

  const settingsOf = async (projectId: string): Promise<Shape<typeof GitSettings>> => {
    const connection = await repos.git.connectionOf(projectId)
    return {
      connection: connection
        ? {
            provider: connection.provider,
            repositoryUrl: connection.repository_url,
            productionBranch: connection.production_branch,
            docsDirectory: connection.docs_directory,
            previewBranches: JSON.parse(connection.preview_branches) as string[],
            buildForkRequests: connection.build_fork_requests === 1,
            webhook: webhookOf(connection),
            githubInstallationId: connection.github_installation_id,
            createdAt: connection.created_at,
            updatedAt: connection.updated_at,
          }
        : null,
      deliveries: (await repos.git.recentDeliveries(projectId, 10)).flatMap((row) =>
        row.status === 'foreign' ? [] : [presentDelivery({ ...row, status: row.status })],
      ),
    }
  }

  app.get(
    '/projects/:projectId/git',
    {
      schema: {
        tags: ['git'],
        summary: "A project's Git connection, its webhook and its latest deliveries",
        params: projectIdParams,
        response: { 200: ref(GitSettings), ...errorResponses },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      return settingsOf(project.id)
    },
  )

  app.put(
    '/projects/:projectId/git',
    {
      schema: {
        tags: ['git'],
        summary:
          'Connect a repository: pushes to its production branch go live, preview branches get previews',
        params: projectIdParams,
        body: ref(GitConnectionUpdate),
        response: { 200: ref(GitSettings), ...errorResponses },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      const { provider, repositoryUrl, productionBranch, previewBranches } = request.body
      const docsDirectory =
        request.body.docsDirectory === null ? null : request.body.docsDirectory.replace(/\/+$/, '') || '.'
      const issues: Issue[] = []
      // GitHub sends pushes to the App's webhook, which needs its secret: without it nothing would arrive.
      if (provider === 'github' && !config.git.github.webhookSecret)
        issues.push({
          path: 'body/provider',
          message:
            "this server has no GitHub App set up, so GitHub's pushes would never reach it: a server administrator sets --github-app-id, --github-app-private-key and --github-webhook-secret (DOCS_GITHUB_APP_ID, DOCS_GITHUB_APP_PRIVATE_KEY, DOCS_GITHUB_WEBHOOK_SECRET); until then deploy with `docsctl push`",
        })
      const urlProblem = repositoryUrlProblem(repositoryUrl)
      const host = urlProblem ? undefined : hostAccess(repositoryUrl, provider, config.git)
      if (urlProblem) issues.push({ path: 'body/repositoryUrl', message: urlProblem })
      else if (host && !host.ok) issues.push({ path: 'body/repositoryUrl', message: host.problem })
      const productionProblem = branchProblem(productionBranch)
      if (productionProblem) issues.push({ path: 'body/productionBranch', message: productionProblem })
      previewBranches.forEach((pattern, index) => {
        const problem = patternProblem(pattern)
        if (problem) issues.push({ path: `body/previewBranches/${index}`, message: problem })
      })
      if (docsDirectory !== null) issues.push(...docsDirectoryIssues(docsDirectory))
      if (issues.length > 0) throw badRequest('Invalid Git connection', issues)
      await repos.git.connect(project.id, {
        provider,
        repositoryUrl: repositoryUrl.replace(/\/+$/, ''),
        productionBranch,
        docsDirectory,
        previewBranches: [...new Set(previewBranches)],
        buildForkRequests: request.body.buildForkRequests,
      })
      return settingsOf(project.id)
    },
  )

  app.delete(
    '/projects/:projectId/git',
    {
      schema: {
        tags: ['git'],
        summary: "Disconnect the project's repository: pushes no longer deploy",
        params: projectIdParams,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      if (!(await repos.git.disconnect(project.id)))
        throw notFound(`Project "${project.slug}" has no Git connection`)
      await app.siteChanged.project(project.id, 'git-disconnected')
      return reply.code(204).send(null)
    },
  )
}
