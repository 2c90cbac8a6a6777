/**
 * Webhook deliveries as each provider sends them: the documented headers and payload of a push (and
 * a branch delete), with real signatures. GitHub:
 * https://docs.github.com/webhooks/webhook-events-and-payloads#push; GitLab:
 * https://docs.gitlab.com/user/project/integrations/webhook_events/#push-events; Gitea/Forgejo:
 * https://docs.gitea.com/usage/webhooks.
 */
import { createHmac, randomUUID } from 'node:crypto'

export interface Delivery {
  headers: Record<string, string>
  payload: string
}

export interface Push {
  repositoryUrl: string
  branch: string
  before: string
  after: string
  message?: string
  forced?: boolean
}

const zero = '0000000000000000000000000000000000000000'
const author = { name: 'Ada Lovelace', email: 'ada@example.com' }

export function githubPush(
  secret: string,
  push: Push,
  options: { installationId?: number; deliveryId?: string } = {},
): Delivery {
  const clone = push.repositoryUrl
  const html = clone.replace(/\.git$/, '')
  const fullName = new URL(html).pathname.slice(1)
  const deleted = push.after === zero
  const headCommit = deleted
    ? null
    : {
        id: push.after,
        tree_id: push.after,
        distinct: true,
        message: push.message ?? 'Update docs',
        timestamp: '2026-01-31T12:00:00Z',
        url: `${html}/commit/${push.after}`,
        author: { ...author, username: 'ada' },
        committer: { ...author, username: 'ada' },
        added: [],
        removed: [],
        modified: ['index.mdx'],
      }
  const body = {
    ref: `refs/heads/${push.branch}`,
    before: push.before,
    after: push.after,
    repository: {
      id: 1296269,
      node_id: 'MDEwOlJlcG9zaXRvcnkxMjk2MjY5',
      name: fullName.split('/')[1],
      full_name: fullName,
      private: true,
      owner: { login: fullName.split('/')[0], id: 1, type: 'Organization' },
      html_url: html,
      clone_url: clone,
      default_branch: 'main',
    },
    pusher: author,
    sender: { login: 'ada', id: 2, type: 'User' },
    installation: { id: options.installationId ?? 77, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNzc=' },
    created: push.before === zero,
    deleted,
    forced: push.forced ?? false,
    base_ref: null,
    compare: `${html}/compare/${push.before.slice(0, 12)}...${push.after.slice(0, 12)}`,
    commits: headCommit ? [headCommit] : [],
    head_commit: headCommit,
  }
  const payload = JSON.stringify(body)
  return {
    payload,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/044aadd',
      'x-github-event': 'push',
      'x-github-delivery': options.deliveryId ?? randomUUID(),
      'x-github-hook-id': '292430182',
      'x-github-hook-installation-target-type': 'integration',
      'x-github-hook-installation-target-id': '424242',
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}`,
    },
  }
}

export function githubInstallation(secret: string, installationId: number, repositories: string[]): Delivery {
  const payload = JSON.stringify({
    action: 'created',
    installation: { id: installationId, account: { login: 'acme', id: 1, type: 'Organization' } },
    repositories: repositories.map((fullName, index) => ({
      id: index + 1,
      node_id: `R_${index}`,
      name: fullName.split('/')[1],
      full_name: fullName,
      private: true,
    })),
    requester: null,
    sender: { login: 'ada', id: 2, type: 'User' },
  })
  return {
    payload,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/044aadd',
      'x-github-event': 'installation',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}`,
    },
  }
}

export function gitlabPush(secretToken: string, push: Push, deliveryId: string = randomUUID()): Delivery {
  const web = push.repositoryUrl.replace(/\.git$/, '')
  const deleted = push.after === zero
  const payload = JSON.stringify({
    object_kind: 'push',
    event_name: 'push',
    before: push.before,
    after: push.after,
    ref: `refs/heads/${push.branch}`,
    ref_protected: push.branch === 'main',
    checkout_sha: deleted ? null : push.after,
    user_id: 4,
    user_name: author.name,
    user_username: 'ada',
    user_email: author.email,
    project_id: 15,
    project: {
      id: 15,
      name: 'Docs',
      web_url: web,
      git_http_url: push.repositoryUrl,
      path_with_namespace: new URL(web).pathname.slice(1),
      default_branch: 'main',
    },
    commits: deleted
      ? []
      : [
          {
            id: push.after,
            message: push.message ?? 'Update docs',
            title: (push.message ?? 'Update docs').split('\n')[0],
            timestamp: '2026-01-31T12:00:00+00:00',
            url: `${web}/-/commit/${push.after}`,
            author,
            added: [],
            modified: ['index.mdx'],
            removed: [],
          },
        ],
    total_commits_count: deleted ? 0 : 1,
    repository: { name: 'Docs', url: push.repositoryUrl, homepage: web, git_http_url: push.repositoryUrl },
  })
  return {
    payload,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitLab/18.0.0',
      'x-gitlab-event': 'Push Hook',
      'x-gitlab-instance': 'https://gitlab.example.com',
      'x-gitlab-webhook-uuid': '4a1b1a5e-2f5b-4b4a-9a5e-2f5b4b4a9a5e',
      'x-gitlab-event-uuid': deliveryId,
      'idempotency-key': deliveryId,
      'x-gitlab-token': secretToken,
    },
  }
}

/** Gitea's headers, or Forgejo's (`X-Forgejo-*`, which Forgejo sends beside the Gitea ones). */
function giteaHeaders(secret: string, payload: string, event: string, flavour: 'gitea' | 'forgejo') {
  const signature = createHmac('sha256', secret).update(payload).digest('hex')
  const id = randomUUID()
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': flavour === 'gitea' ? 'Go-http-client/1.1' : 'Forgejo',
    'x-gitea-event': event,
    'x-gitea-event-type': event,
    'x-gitea-delivery': id,
    'x-gitea-signature': signature,
  }
  if (flavour === 'forgejo') {
    headers['x-forgejo-event'] = event
    headers['x-forgejo-delivery'] = id
    headers['x-forgejo-signature'] = signature
  }
  return headers
}

export function giteaPush(secret: string, push: Push, flavour: 'gitea' | 'forgejo' = 'gitea'): Delivery {
  const html = push.repositoryUrl.replace(/\.git$/, '')
  const commit = {
    id: push.after,
    message: `${push.message ?? 'Update docs'}\n`,
    url: `${html}/commit/${push.after}`,
    author: { ...author, username: 'ada' },
    committer: { ...author, username: 'ada' },
    timestamp: '2026-01-31T12:00:00Z',
    added: [],
    removed: [],
    modified: ['index.mdx'],
  }
  const payload = JSON.stringify({
    ref: `refs/heads/${push.branch}`,
    before: push.before,
    after: push.after,
    compare_url: `${html}/compare/${push.before}...${push.after}`,
    commits: [commit],
    total_commits: 1,
    head_commit: commit,
    repository: {
      id: 1,
      name: 'docs',
      full_name: new URL(html).pathname.slice(1),
      html_url: html,
      clone_url: push.repositoryUrl,
      default_branch: 'main',
    },
    pusher: { login: 'ada', email: author.email },
    sender: { login: 'ada', email: author.email },
  })
  return { payload, headers: giteaHeaders(secret, payload, 'push', flavour) }
}

export function giteaDeleteBranch(
  secret: string,
  repositoryUrl: string,
  branch: string,
  flavour: 'gitea' | 'forgejo' = 'gitea',
): Delivery {
  const html = repositoryUrl.replace(/\.git$/, '')
  const payload = JSON.stringify({
    ref: branch,
    ref_type: 'branch',
    pusher_type: 'user',
    repository: { id: 1, name: 'docs', html_url: html, clone_url: repositoryUrl },
    sender: { login: 'ada' },
  })
  return { payload, headers: giteaHeaders(secret, payload, 'delete', flavour) }
}

export const zeroSha = zero

export interface PullRequest {
  repositoryUrl: string
  number: number
  action: 'opened' | 'synchronized' | 'reopened' | 'closed'
  headBranch: string
  headSha: string
  fromFork?: boolean
}

/** Gitea's `pull_request` event (Forgejo's is the same): https://docs.gitea.com/usage/webhooks */
export function giteaPullRequest(
  secret: string,
  request: PullRequest,
  flavour: 'gitea' | 'forgejo' = 'gitea',
): Delivery {
  const html = request.repositoryUrl.replace(/\.git$/, '')
  const fullName = new URL(html).pathname.slice(1)
  const repository = {
    id: 1,
    name: fullName.split('/')[1],
    full_name: fullName,
    html_url: html,
    clone_url: request.repositoryUrl,
    default_branch: 'main',
  }
  const fork = {
    ...repository,
    id: 2,
    full_name: `someone/${repository.name}`,
    clone_url: 'http://fork.invalid/x.git',
  }
  const payload = JSON.stringify({
    action: request.action,
    number: request.number,
    pull_request: {
      id: 9000 + request.number,
      number: request.number,
      user: { id: 2, login: 'ada' },
      title: 'Rework the setup guide',
      body: '',
      state: request.action === 'closed' ? 'closed' : 'open',
      html_url: `${html}/pulls/${request.number}`,
      merged: false,
      base: { label: 'main', ref: 'main', sha: '1'.repeat(40), repo_id: 1, repo: repository },
      head: {
        label: request.headBranch,
        ref: request.headBranch,
        sha: request.headSha,
        repo_id: request.fromFork ? 2 : 1,
        repo: request.fromFork ? fork : repository,
      },
    },
    repository,
    sender: { id: 2, login: 'ada' },
  })
  return { payload, headers: giteaHeaders(secret, payload, 'pull_request', flavour) }
}

/** GitHub's `pull_request` event: https://docs.github.com/webhooks/webhook-events-and-payloads#pull_request */
export function githubPullRequest(
  secret: string,
  request: Omit<PullRequest, 'action'> & { action: 'opened' | 'synchronize' | 'reopened' | 'closed' },
  options: { installationId?: number } = {},
): Delivery {
  const html = request.repositoryUrl.replace(/\.git$/, '')
  const fullName = new URL(html).pathname.slice(1)
  const repository = {
    id: 1296269,
    name: fullName.split('/')[1],
    full_name: fullName,
    private: true,
    owner: { login: fullName.split('/')[0], id: 1, type: 'Organization' },
    html_url: html,
    clone_url: request.repositoryUrl,
    default_branch: 'main',
  }
  const fork = { ...repository, id: 7, full_name: `someone/${repository.name}` }
  const payload = JSON.stringify({
    action: request.action,
    number: request.number,
    pull_request: {
      id: 5000 + request.number,
      number: request.number,
      state: request.action === 'closed' ? 'closed' : 'open',
      title: 'Rework the setup guide',
      user: { login: 'ada', id: 2, type: 'User' },
      html_url: `${html}/pull/${request.number}`,
      merged: false,
      head: {
        label: `acme:${request.headBranch}`,
        ref: request.headBranch,
        sha: request.headSha,
        repo: request.fromFork ? fork : repository,
      },
      base: { label: 'acme:main', ref: 'main', sha: '1'.repeat(40), repo: repository },
    },
    repository,
    installation: { id: options.installationId ?? 77, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNzc=' },
    sender: { login: 'ada', id: 2, type: 'User' },
  })
  return {
    payload,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/044aadd',
      'x-github-event': 'pull_request',
      'x-github-delivery': randomUUID(),
      'x-github-hook-installation-target-type': 'integration',
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}`,
    },
  }
}

/** GitLab's `Merge Request Hook`: https://docs.gitlab.com/user/project/integrations/webhook_events/#merge-request-events */
export function gitlabMergeRequest(
  secretToken: string,
  request: Omit<PullRequest, 'action'> & {
    action: 'open' | 'update' | 'reopen' | 'close' | 'merge'
    oldrev?: string
  },
): Delivery {
  const web = request.repositoryUrl.replace(/\.git$/, '')
  const project = {
    id: 15,
    name: 'Docs',
    web_url: web,
    git_http_url: request.repositoryUrl,
    path_with_namespace: new URL(web).pathname.slice(1),
    default_branch: 'main',
  }
  const payload = JSON.stringify({
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: { id: 4, name: author.name, username: 'ada', email: author.email },
    project,
    object_attributes: {
      id: 99,
      iid: request.number,
      title: 'Rework the setup guide',
      action: request.action,
      state: request.action === 'close' ? 'closed' : request.action === 'merge' ? 'merged' : 'opened',
      source_branch: request.headBranch,
      target_branch: 'main',
      source_project_id: request.fromFork ? 16 : 15,
      target_project_id: 15,
      last_commit: { id: request.headSha, message: 'Rework', author },
      ...(request.oldrev ? { oldrev: request.oldrev } : {}),
      url: `${web}/-/merge_requests/${request.number}`,
    },
    repository: { name: 'Docs', url: request.repositoryUrl, homepage: web },
  })
  const deliveryId = randomUUID()
  return {
    payload,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitLab/18.0.0',
      'x-gitlab-event': 'Merge Request Hook',
      'x-gitlab-event-uuid': deliveryId,
      'idempotency-key': deliveryId,
      'x-gitlab-token': secretToken,
    },
  }
}
