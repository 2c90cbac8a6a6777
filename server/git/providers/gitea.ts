/**
 * Gitea and Forgejo webhooks: `X-Gitea-Signature` / `X-Forgejo-Signature`, the hex HMAC-SHA256 of the
 * raw body under the project's webhook secret, checked in constant time before the body is parsed.
 * `push` deploys; `delete` of a branch removes its preview; `pull_request` keeps a request's preview. https://docs.gitea.com/usage/webhooks
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
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

const zeroSha = '0000000000000000000000000000000000000000'

export function verifyGitea(headers: IncomingHttpHeaders, body: Buffer, secret: string): Verified {
  const signature = header(headers, 'x-forgejo-signature') ?? header(headers, 'x-gitea-signature')
  if (!signature) return { ok: false, status: 401, reason: 'unsigned: no X-Gitea-Signature header' }
  const expected = createHmac('sha256', secret).update(body).digest()
  const given = Buffer.from(signature, 'hex')
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, status: 401, reason: 'X-Gitea-Signature does not match the body' }
  const deliveryId = header(headers, 'x-forgejo-delivery') ?? header(headers, 'x-gitea-delivery')
  if (!deliveryId) return { ok: false, status: 401, reason: 'no X-Gitea-Delivery header' }
  return { ok: true, deliveryId }
}

export function parseGiteaEvent(headers: IncomingHttpHeaders, payload: unknown): WebhookEvent {
  const name = header(headers, 'x-forgejo-event') ?? header(headers, 'x-gitea-event')
  if (!isObject(payload)) return { kind: 'ignored', reason: 'the payload is not a JSON object' }
  const repository = isObject(payload.repository) ? payload.repository : {}
  const repositoryUrls = stringsOf(repository.clone_url, repository.html_url)
  if (name === 'delete' && payload.ref_type === 'branch' && typeof payload.ref === 'string') {
    return {
      kind: 'push',
      branch: payload.ref,
      commitSha: zeroSha,
      commitMessage: null,
      commitAuthor: null,
      forced: false,
      repositoryUrls,
      githubInstallationId: null,
    }
  }
  if (name === 'pull_request') return pullRequestEvent(payload, repositoryUrls)
  if (name !== 'push') return { kind: 'ignored', reason: `the ${name ?? 'unnamed'} event does not deploy` }
  const branch = branchOfRef(payload.ref)
  if (!branch) return { kind: 'ignored', reason: `${String(payload.ref)} is not a branch` }
  const head = isObject(payload.head_commit) ? payload.head_commit : undefined
  return {
    kind: 'push',
    branch,
    commitSha: String(payload.after),
    commitMessage: typeof head?.message === 'string' ? head.message : null,
    commitAuthor: authorOf(head?.author as { name?: string; email?: string } | undefined),
    forced: false,
    repositoryUrls,
    githubInstallationId: null,
  }
}

/** `opened`, `synchronized`, `reopened` deploy the head; `closed` (merged or not) removes the preview. */
function pullRequestEvent(payload: Record<string, unknown>, repositoryUrls: string[]): WebhookEvent {
  const kind = String(payload.action ?? '')
  const action = ['opened', 'synchronized', 'reopened'].includes(kind)
    ? 'update'
    : kind === 'closed'
      ? 'close'
      : undefined
  if (!action) return { kind: 'ignored', reason: `a pull request ${kind || 'event'} does not deploy` }
  const request = isObject(payload.pull_request) ? payload.pull_request : {}
  const head = isObject(request.head) ? request.head : {}
  const base = isObject(request.base) ? request.base : {}
  const user = isObject(request.user) ? request.user : {}
  return {
    kind: 'pull-request',
    action,
    number: Number(payload.number ?? request.number),
    headBranch: String(head.ref ?? ''),
    headSha: String(head.sha ?? ''),
    fromFork: head.repo_id !== base.repo_id,
    title: typeof request.title === 'string' ? request.title : null,
    author: typeof user.login === 'string' ? user.login : null,
    repositoryUrls,
    githubInstallationId: null,
  }
}
