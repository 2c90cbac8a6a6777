/**
 * Webhooks that deploy Git pushes and pull/merge requests' previews: `POST /webhooks/github` (the GitHub App's one URL),
 * `/webhooks/gitlab/:projectId` and `/webhooks/gitea/:projectId` (Gitea and Forgejo). Each delivery is
 * verified on its raw bytes before it is parsed; an unsigned, wrongly signed or replayed one answers
 * 401 and an oversized one 413, each logged, and nothing is queued. A replay is known by its signed
 * content (the hash of the verified body), not by its delivery id, which no signature covers. An
 * accepted push is a durable row in the delivery queue, answered 202 before it is built.
 */
import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ErrorBody } from '../../schemas/api/common.js'
import { projectIdParams, ref, WebhookAccepted } from '../../schemas/api/index.js'
import type { GitConnectionRow, GitProvider } from '../db/repositories/git.js'
import { ApiError, badRequest } from '../errors.js'
import { parseGiteaEvent, verifyGitea } from '../git/providers/gitea.js'
import { GitHubWebhooks, parseGitHubEvent } from '../git/providers/github.js'
import { parseGitLabEvent, verifyGitLab } from '../git/providers/gitlab.js'
import type { Verified, WebhookEvent } from '../git/providers/push-event.js'
import { isZeroSha, normaliseRepositoryUrl, pullRequestKey, repositoryFullName } from '../git/repository.js'
import { webhookSecretOf } from '../git/secrets.js'
import type { ApiRoutes } from '../schemas.js'

const errorRef = ref(ErrorBody)
const responses = { 202: ref(WebhookAccepted), 400: errorRef, 401: errorRef, 413: errorRef } as const

/** Delivery ids are GUIDs/UUIDs; anything else is refused before it reaches a query. */
const isDeliveryId = (id: string): boolean => /^[A-Za-z0-9-]{1,100}$/.test(id)

export const gitWebhookRoutes: ApiRoutes<{ webhookKey: string }> = async (app, { webhookKey }) => {
  const { repos, config } = app
  const github = config.git.github.webhookSecret
    ? new GitHubWebhooks(config.git.github.webhookSecret)
    : undefined

  // The raw bytes: signatures are over them, so nothing is parsed before it is verified.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
  // Refusals made here are logged where they are made; this catches the body limit's 413.
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof ApiError) return
    request.log.warn(
      { url: request.url, reason: error.message },
      'webhook delivery refused; nothing deployed',
    )
  })

  const refuse = (request: FastifyRequest, provider: GitProvider, reason: string, status = 401): never => {
    request.log.warn({ provider, reason, url: request.url }, 'webhook delivery refused; nothing deployed')
    if (status === 400) throw badRequest(`Webhook refused: ${reason}`)
    throw new ApiError(status, `Webhook refused: ${reason}`)
  }

  const bodyOf = (request: FastifyRequest): Buffer =>
    Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)

  const parse = (request: FastifyRequest, provider: GitProvider, body: Buffer): unknown => {
    try {
      return JSON.parse(body.toString('utf8'))
    } catch {
      return refuse(request, provider, 'the body is not JSON (set the content type to application/json)', 400)
    }
  }

  /** Queue a push for each connection; 401 when every one of them was seen before. */
  async function queuePush(
    request: FastifyRequest,
    reply: FastifyReply,
    provider: GitProvider,
    deliveryId: string,
    body: Buffer,
    event: WebhookEvent,
    connections: GitConnectionRow[],
  ) {
    if (event.kind !== 'push' && event.kind !== 'pull-request') {
      return reply
        .code(202)
        .send({ queued: 0, message: event.kind === 'ignored' ? event.reason : 'recorded' })
    }
    const urls = new Set(event.repositoryUrls.map(normaliseRepositoryUrl))
    const matching = connections.filter((connection) =>
      urls.has(normaliseRepositoryUrl(connection.repository_url)),
    )
    if (matching.length === 0) {
      return reply.code(202).send({ queued: 0, message: 'No project is connected to this repository' })
    }
    // A push is known by its signed body: a captured one sent again under a new delivery id is the same
    // push. A branch's deletion says too little to tell two apart (Gitea's names no commit), so it keeps
    // the delivery id; the deployer removes a preview only when the branch is really gone.
    const bodyKey = `body-${createHash('sha256').update(body).digest('hex')}`
    const pushKey = event.kind === 'push' && isZeroSha(event.commitSha) ? deliveryId : bodyKey
    let queued = 0
    for (const connection of matching) {
      const deliveryKey = `${provider}:${pushKey}:${connection.project_id}`
      if (event.kind === 'pull-request') {
        if (await repos.git.seen(deliveryKey)) continue
        // Recorded first: the deployer reads the head branch and the comment to update from it.
        await repos.git.recordPullRequest({
          projectId: connection.project_id,
          number: event.number,
          state: event.action === 'close' ? 'closed' : 'open',
          headBranch: event.headBranch,
          headSha: event.headSha,
          fromFork: event.fromFork,
        })
      }
      const inserted = await repos.git.enqueue(
        event.kind === 'push'
          ? {
              deliveryKey,
              projectId: connection.project_id,
              event: 'push',
              branch: event.branch,
              commitSha: event.commitSha,
              commitMessage: event.commitMessage,
              commitAuthor: event.commitAuthor,
              forced: event.forced,
              githubInstallationId: event.githubInstallationId,
            }
          : {
              deliveryKey,
              projectId: connection.project_id,
              event: 'pull_request',
              branch: pullRequestKey(event.number),
              commitSha: event.headSha,
              commitMessage: event.title,
              commitAuthor: event.author,
              forced: false,
              githubInstallationId: event.githubInstallationId,
              request: { number: event.number, action: event.action, fromFork: event.fromFork },
            },
      )
      if (inserted) queued += 1
    }
    const what = event.kind === 'push' ? 'push' : 'request event'
    if (queued === 0)
      refuse(request, provider, `delivery ${deliveryId} or its ${what} was already received (a replay)`)
    const branch = event.kind === 'push' ? event.branch : pullRequestKey(event.number)
    const sha = event.kind === 'push' ? event.commitSha : event.headSha
    request.log.info({ provider, deliveryId, branch, sha, queued }, `${what} queued`)
    app.gitDeployer.kick()
    return reply.code(202).send({ queued, message: `Queued ${branch} at ${sha}` })
  }

  const accept = (request: FastifyRequest, provider: GitProvider, verified: Verified): string => {
    if (!verified.ok) return refuse(request, provider, verified.reason, verified.status)
    if (!isDeliveryId(verified.deliveryId)) return refuse(request, provider, 'malformed delivery id')
    return verified.deliveryId
  }

  const limits = { bodyLimit: config.git.maxWebhookBytes }

  app.post(
    '/webhooks/github',
    {
      ...limits,
      schema: {
        tags: ['git'],
        summary:
          "The GitHub App's webhook: push, pull_request and installation events, signed with X-Hub-Signature-256",
        response: responses,
      },
    },
    async (request, reply) => {
      if (!github) return refuse(request, 'github', 'this server has no GitHub App webhook secret configured')
      const body = bodyOf(request)
      const deliveryId = accept(request, 'github', await github.verify(request.headers, body))
      const event = parseGitHubEvent(request.headers, parse(request, 'github', body))
      if (event.kind === 'installation') {
        const names = new Set(event.repositories.map((name) => name.toLowerCase()))
        const connections = await repos.git.connectionsOfProvider('github')
        for (const connection of connections) {
          if (!names.has(repositoryFullName(connection.repository_url).toLowerCase())) continue
          await repos.git.setInstallation(
            connection.project_id,
            event.installed ? event.installationId : null,
          )
        }
        request.log.info(
          { deliveryId, installationId: event.installationId },
          'GitHub App installation recorded',
        )
        return reply.code(202).send({ queued: 0, message: 'Installation recorded' })
      }
      const urls = event.kind === 'push' || event.kind === 'pull-request' ? event.repositoryUrls : []
      const connections = await repos.git.connectionsByRepository('github', urls)
      return queuePush(request, reply, 'github', deliveryId, body, event, connections)
    },
  )

  for (const provider of ['gitlab', 'gitea'] as const) {
    app.post(
      `/webhooks/${provider}/:projectId`,
      {
        ...limits,
        schema: {
          tags: ['git'],
          summary:
            provider === 'gitlab'
              ? "A project's GitLab webhook: push and merge request events, with the secret token in X-Gitlab-Token"
              : "A project's Gitea/Forgejo webhook: push, delete and pull_request events, HMAC-signed",
          params: projectIdParams,
          response: responses,
        },
      },
      async (request, reply) => {
        const { projectId } = request.params
        const secret = webhookSecretOf(webhookKey, projectId)
        const body = bodyOf(request)
        const verified =
          provider === 'gitlab'
            ? verifyGitLab(request.headers, secret)
            : verifyGitea(request.headers, body, secret)
        const deliveryId = accept(request, provider, verified)
        const payload = parse(request, provider, body)
        const event =
          provider === 'gitlab'
            ? parseGitLabEvent(request.headers, payload)
            : parseGiteaEvent(request.headers, payload)
        const connection = await repos.git.connectionOf(projectId)
        const connections = connection?.provider === provider ? [connection] : []
        return queuePush(request, reply, provider, deliveryId, body, event, connections)
      },
    )
  }
}
