/**
 * GitLab webhooks: the `X-Gitlab-Token` header must equal the project's webhook secret (compared in
 * constant time; GitLab sends the secret itself, not a signature). `Push Hook` deploys; `Merge Request Hook` keeps a merge request's preview.
 * https://docs.gitlab.com/user/project/integrations/webhook_events/#push-events
 */
import { timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import {
  authorOf,
  branchOfRef,
  header,
  isObject,
  stringsOf,
  type Verified,
  type WebhookEvent,
} from './push-event.js'

interface GitLabCommit {
  id?: string
  message?: string
  author?: { name?: string; email?: string }
}

export function verifyGitLab(headers: IncomingHttpHeaders, secret: string): Verified {
  const token = header(headers, 'x-gitlab-token')
  if (!token) return { ok: false, status: 401, reason: 'unsigned: no X-Gitlab-Token header' }
  const given = Buffer.from(token)
  const expected = Buffer.from(secret)
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, status: 401, reason: 'X-Gitlab-Token is not this project’s webhook secret' }
  const deliveryId = header(headers, 'x-gitlab-event-uuid') ?? header(headers, 'idempotency-key')
  if (!deliveryId) return { ok: false, status: 401, reason: 'no X-Gitlab-Event-UUID header' }
  return { ok: true, deliveryId }
}

export function parseGitLabEvent(headers: IncomingHttpHeaders, payload: unknown): WebhookEvent {
  const name = header(headers, 'x-gitlab-event')
  if (!isObject(payload)) return { kind: 'ignored', reason: 'the payload is not a JSON object' }
  if (name === 'Merge Request Hook' && payload.object_kind === 'merge_request')
    return mergeRequestEvent(payload)
  if (name !== 'Push Hook' || payload.object_kind !== 'push')
    return { kind: 'ignored', reason: `the ${name ?? 'unnamed'} event does not deploy` }
  const branch = branchOfRef(payload.ref)
  if (!branch) return { kind: 'ignored', reason: `${String(payload.ref)} is not a branch` }
  const after = String(payload.checkout_sha ?? payload.after ?? '')
  const commits = Array.isArray(payload.commits) ? (payload.commits as GitLabCommit[]) : []
  const head = commits.find((commit) => commit.id === after) ?? commits.at(-1)
  const project = isObject(payload.project) ? payload.project : {}
  const repository = isObject(payload.repository) ? payload.repository : {}
  return {
    kind: 'push',
    branch,
    commitSha: after === '' ? String(payload.after) : after,
    commitMessage: head?.message ?? null,
    commitAuthor: authorOf(head?.author),
    forced: false,
    repositoryUrls: stringsOf(
      project.git_http_url,
      project.web_url,
      repository.git_http_url,
      repository.homepage,
    ),
    githubInstallationId: null,
  }
}

/** `open`, `reopen` and an `update` that brought commits (it names `oldrev`) deploy; `close`, `merge` remove. */
function mergeRequestEvent(payload: Record<string, unknown>): WebhookEvent {
  const request = isObject(payload.object_attributes) ? payload.object_attributes : {}
  const kind = String(request.action ?? '')
  const action =
    kind === 'open' || kind === 'reopen' || (kind === 'update' && request.oldrev !== undefined)
      ? 'update'
      : kind === 'close' || kind === 'merge'
        ? 'close'
        : undefined
  if (!action) return { kind: 'ignored', reason: `a merge request ${kind || 'event'} does not deploy` }
  const lastCommit = isObject(request.last_commit) ? request.last_commit : {}
  const project = isObject(payload.project) ? payload.project : {}
  const user = isObject(payload.user) ? payload.user : {}
  return {
    kind: 'pull-request',
    action,
    number: Number(request.iid),
    headBranch: String(request.source_branch ?? ''),
    headSha: String(lastCommit.id ?? ''),
    fromFork: request.source_project_id !== request.target_project_id,
    title: typeof request.title === 'string' ? request.title : null,
    author: typeof user.username === 'string' ? user.username : null,
    repositoryUrls: stringsOf(project.git_http_url, project.web_url),
    githubInstallationId: null,
  }
}
