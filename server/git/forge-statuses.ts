/**
 * Commit statuses on GitLab and Gitea/Forgejo, with the server's bot token, at the configured API
 * address. GitLab: https://docs.gitlab.com/api/commits/#set-the-pipeline-status-of-a-commit; Gitea:
 * https://docs.gitea.com/api/1.22/#tag/repository/operation/repoCreateStatus (Forgejo: the same).
 */
import { packageVersion } from '../../lib/version.js'
import type { CommitStatus } from './github-app.js'
import { repositoryFullName } from './repository.js'

const gitlabStates: Record<CommitStatus['state'], string> = {
  pending: 'running',
  success: 'success',
  failure: 'failed',
  error: 'failed',
}

async function send(url: string, headers: Record<string, string>, body: object): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': `docs-server/${packageVersion}`,
      ...headers,
    },
    body: JSON.stringify(body),
    // The token header would follow a redirect to wherever it points.
    redirect: 'error',
    signal: AbortSignal.timeout(15_000),
  })
  if (!response.ok)
    throw new Error(`the commit status was refused: ${response.status} ${response.statusText}`)
}

export async function setGitLabStatus(
  api: { apiUrl: string; token: string },
  repositoryUrl: string,
  sha: string,
  status: CommitStatus,
): Promise<void> {
  const project = encodeURIComponent(repositoryFullName(repositoryUrl))
  await send(
    `${api.apiUrl}/projects/${project}/statuses/${sha}`,
    { 'private-token': api.token },
    {
      state: gitlabStates[status.state],
      name: status.context,
      description: status.description.slice(0, 255),
      ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
    },
  )
}

export async function setGiteaStatus(
  api: { apiUrl: string; token: string },
  repositoryUrl: string,
  sha: string,
  status: CommitStatus,
): Promise<void> {
  const [owner = '', repo = ''] = repositoryFullName(repositoryUrl).split('/')
  await send(
    `${api.apiUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/statuses/${sha}`,
    { authorization: `token ${api.token}` },
    {
      state: status.state,
      context: status.context,
      description: status.description.slice(0, 255),
      ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
    },
  )
}
