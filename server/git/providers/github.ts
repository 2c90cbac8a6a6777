/**
 * GitHub App webhooks: `X-Hub-Signature-256` checked by @octokit/webhooks against the App's secret
 * before the body is parsed; `push` deploys, `pull_request` (opened, synchronize, reopened, closed) keeps a request's preview,
 * `installation` and `installation_repositories` record
 * which installation serves a repository. https://docs.github.com/webhooks/webhook-events-and-payloads
 */
import type { IncomingHttpHeaders } from 'node:http'
import { type EmitterWebhookEvent, Webhooks } from '@octokit/webhooks'
import {
  authorOf,
  branchOfRef,
  header,
  isObject,
  stringsOf,
  type Verified,
  type WebhookEvent,
} from './push-event.js'

type PushPayload = EmitterWebhookEvent<'push'>['payload']
type PullRequestPayload = EmitterWebhookEvent<'pull_request'>['payload']
type InstallationPayload = EmitterWebhookEvent<'installation'>['payload']
type InstallationRepositoriesPayload = EmitterWebhookEvent<'installation_repositories'>['payload']

export class GitHubWebhooks {
  readonly #webhooks: Webhooks

  constructor(secret: string) {
    this.#webhooks = new Webhooks({ secret })
  }

  async verify(headers: IncomingHttpHeaders, body: Buffer): Promise<Verified> {
    const signature = header(headers, 'x-hub-signature-256')
    if (!signature) return { ok: false, status: 401, reason: 'unsigned: no X-Hub-Signature-256 header' }
    const deliveryId = header(headers, 'x-github-delivery')
    if (!deliveryId) return { ok: false, status: 401, reason: 'no X-GitHub-Delivery header' }
    const valid = await this.#webhooks.verify(body.toString('utf8'), signature).catch(() => false)
    if (!valid) return { ok: false, status: 401, reason: 'X-Hub-Signature-256 does not match the body' }
    return { ok: true, deliveryId }
  }
}

export function parseGitHubEvent(headers: IncomingHttpHeaders, payload: unknown): WebhookEvent {
  const name = header(headers, 'x-github-event')
  if (!isObject(payload)) return { kind: 'ignored', reason: 'the payload is not a JSON object' }
  if (name === 'push') {
    const push = payload as unknown as PushPayload
    const branch = branchOfRef(push.ref)
    if (!branch) return { kind: 'ignored', reason: `${String(push.ref)} is not a branch` }
    const head = push.head_commit
    return {
      kind: 'push',
      branch,
      commitSha: String(push.after),
      commitMessage: head?.message ?? null,
      commitAuthor: authorOf(head?.author),
      forced: push.forced === true,
      repositoryUrls: stringsOf(push.repository?.clone_url, push.repository?.html_url),
      githubInstallationId: push.installation?.id === undefined ? null : String(push.installation.id),
    }
  }
  if (name === 'pull_request') {
    const event = payload as unknown as PullRequestPayload
    const action = ['opened', 'synchronize', 'reopened'].includes(event.action)
      ? 'update'
      : event.action === 'closed'
        ? 'close'
        : undefined
    if (!action) return { kind: 'ignored', reason: `a pull request ${event.action} does not deploy` }
    const request = event.pull_request
    return {
      kind: 'pull-request',
      action,
      number: event.number,
      headBranch: request.head.ref,
      headSha: request.head.sha,
      fromFork: request.head.repo?.full_name !== request.base.repo.full_name,
      title: request.title,
      author: request.user?.login ?? null,
      repositoryUrls: stringsOf(event.repository.clone_url, event.repository.html_url),
      githubInstallationId: installationOf(payload),
    }
  }
  if (name === 'installation') {
    const event = payload as unknown as InstallationPayload
    return {
      kind: 'installation',
      installationId: String(event.installation.id),
      installed: event.action !== 'deleted' && event.action !== 'suspend',
      repositories: (event.repositories ?? []).map((repository) => repository.full_name),
    }
  }
  if (name === 'installation_repositories') {
    const event = payload as unknown as InstallationRepositoriesPayload
    const added = event.action === 'added'
    return {
      kind: 'installation',
      installationId: String(event.installation.id),
      installed: added,
      repositories: (added ? event.repositories_added : event.repositories_removed).map(
        (repository) => repository.full_name,
      ),
    }
  }
  return { kind: 'ignored', reason: `the ${name ?? 'unnamed'} event does not deploy` }
}

/** The App installation a delivery came through (every App delivery names it). */
function installationOf(payload: Record<string, unknown>): string | null {
  const installation = isObject(payload.installation) ? payload.installation : undefined
  return installation?.id === undefined ? null : String(installation.id)
}
