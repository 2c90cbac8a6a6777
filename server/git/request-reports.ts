/**
 * Where a pull/merge request's preview and change report show on its forge, each updated in place:
 * GitHub, a check run per head commit (created when the build starts, completed with the report) and
 * one comment on the request; GitLab, one note on the merge request
 * (https://docs.gitlab.com/api/notes/#merge-requests); Gitea and Forgejo, one comment on the pull
 * request (https://docs.gitea.com/api/1.22/#tag/issue/operation/issueCreateComment). Commit statuses
 * are forge-statuses.ts's and github-app.ts's.
 */
import { packageVersion } from '../../lib/version.js'
import { repositoryFullName } from './repository.js'

export interface CheckRunOutcome {
  conclusion: 'success' | 'neutral' | 'failure'
  title: string
  summary: string
  detailsUrl: string | null
}

/** The calls a request's reporting makes on its forge; each answers the id of what it made. */
export interface RequestForge {
  /** GitHub only: a check run on the head commit. */
  checkRuns?: {
    create(sha: string, name: string): Promise<string>
    complete(id: string, outcome: CheckRunOutcome): Promise<void>
  }
  comments: {
    create(number: number, body: string): Promise<string>
    update(number: number, id: string, body: string): Promise<void>
  }
}

async function call(
  method: 'POST' | 'PUT' | 'PATCH',
  url: string,
  headers: Record<string, string>,
  body: object,
): Promise<{ id?: unknown }> {
  const response = await fetch(url, {
    method,
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
  if (!response.ok) throw new Error(`${method} ${new URL(url).pathname} was refused: ${response.status}`)
  const text = await response.text()
  try {
    return (text ? JSON.parse(text) : {}) as { id?: unknown }
  } catch {
    return {}
  }
}

const idOf = (answer: { id?: unknown }, what: string): string => {
  if (typeof answer.id !== 'number' && typeof answer.id !== 'string')
    throw new Error(`the forge answered no id for the ${what}`)
  return String(answer.id)
}

export function gitlabRequestForge(
  api: { apiUrl: string; token: string },
  repositoryUrl: string,
): RequestForge {
  const project = encodeURIComponent(repositoryFullName(repositoryUrl))
  const headers = { 'private-token': api.token }
  const notes = (number: number) => `${api.apiUrl}/projects/${project}/merge_requests/${number}/notes`
  return {
    comments: {
      create: async (number, body) => idOf(await call('POST', notes(number), headers, { body }), 'note'),
      update: async (number, id, body) => {
        await call('PUT', `${notes(number)}/${encodeURIComponent(id)}`, headers, { body })
      },
    },
  }
}

export function giteaRequestForge(
  api: { apiUrl: string; token: string },
  repositoryUrl: string,
): RequestForge {
  const [owner = '', repo = ''] = repositoryFullName(repositoryUrl).split('/')
  const base = `${api.apiUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/issues`
  const headers = { authorization: `token ${api.token}` }
  return {
    comments: {
      create: async (number, body) =>
        idOf(await call('POST', `${base}/${number}/comments`, headers, { body }), 'comment'),
      update: async (_number, id, body) => {
        await call('PATCH', `${base}/comments/${encodeURIComponent(id)}`, headers, { body })
      },
    },
  }
}

/** GitHub's REST calls with an installation token (https://docs.github.com/rest/checks/runs). */
export function githubRequestForge(api: { apiUrl: string; token: string }, fullName: string): RequestForge {
  const [owner = '', repo = ''] = fullName.split('/')
  const base = `${api.apiUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`
  const headers = {
    authorization: `token ${api.token}`,
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
  }
  return {
    checkRuns: {
      create: async (sha, name) =>
        idOf(
          await call('POST', `${base}/check-runs`, headers, { name, head_sha: sha, status: 'in_progress' }),
          'check run',
        ),
      complete: async (id, outcome) => {
        await call('PATCH', `${base}/check-runs/${encodeURIComponent(id)}`, headers, {
          status: 'completed',
          conclusion: outcome.conclusion,
          ...(outcome.detailsUrl ? { details_url: outcome.detailsUrl } : {}),
          output: { title: outcome.title.slice(0, 255), summary: outcome.summary.slice(0, 65_535) },
        })
      },
    },
    comments: {
      create: async (number, body) =>
        idOf(await call('POST', `${base}/issues/${number}/comments`, headers, { body }), 'comment'),
      update: async (_number, id, body) => {
        await call('PATCH', `${base}/issues/comments/${encodeURIComponent(id)}`, headers, { body })
      },
    },
  }
}
