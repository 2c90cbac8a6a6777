/**
 * A stand-in for the commit-status endpoints of GitLab and Gitea/Forgejo on loopback, checking each
 * request against the documented shape and the bot token: GitLab
 * `POST /api/v4/projects/:id/statuses/:sha` with `PRIVATE-TOKEN`
 * (https://docs.gitlab.com/api/commits/#set-the-pipeline-status-of-a-commit), Gitea
 * `POST /api/v1/repos/:owner/:repo/statuses/:sha` with `Authorization: token …`
 * (https://docs.gitea.com/api/1.22/#tag/repository/operation/repoCreateStatus).
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestContext } from 'node:test'

export interface ForgeStatus {
  forge: 'gitlab' | 'gitea'
  repository: string
  sha: string
  state: string
  /** GitLab's `name`, Gitea's `context`. */
  context: string
  targetUrl: string | undefined
  description: string | undefined
}

const gitlabStates = ['pending', 'running', 'success', 'failed', 'canceled', 'skipped']
const giteaStates = ['pending', 'success', 'error', 'failure', 'warning']

export class ForgeApi {
  readonly statuses: ForgeStatus[] = []
  readonly problems: string[] = []
  url = ''

  private constructor(readonly token: string) {}

  static async start(t: Pick<TestContext, 'after'>, token: string): Promise<ForgeApi> {
    const api = new ForgeApi(token)
    const server = createServer((request, response) => {
      api.#handle(request).then((status) => {
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end('{}')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    t.after(async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    })
    return api
  }

  #refuse(problem: string): number {
    this.problems.push(problem)
    return 422
  }

  async #handle(request: IncomingMessage): Promise<number> {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const path = new URL(request.url ?? '/', 'http://x').pathname
    if (request.method !== 'POST') return this.#refuse(`${request.method} ${path}`)
    if (!String(request.headers['content-type']).startsWith('application/json'))
      return this.#refuse('expected a JSON body')
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>
    const gitlab = /^\/api\/v4\/projects\/([^/]+)\/statuses\/([0-9a-f]{40})$/.exec(path)
    if (gitlab) {
      if (request.headers['private-token'] !== this.token)
        return this.#refuse('GitLab: PRIVATE-TOKEN missing or wrong')
      const unknown = Object.keys(body).filter(
        (key) =>
          ![
            'state',
            'ref',
            'name',
            'context',
            'target_url',
            'description',
            'coverage',
            'pipeline_id',
          ].includes(key),
      )
      if (unknown.length) return this.#refuse(`GitLab: unknown fields ${unknown.join(', ')}`)
      if (!gitlabStates.includes(String(body.state)))
        return this.#refuse(`GitLab: state ${String(body.state)}`)
      this.statuses.push({
        forge: 'gitlab',
        repository: decodeURIComponent(gitlab[1] ?? ''),
        sha: gitlab[2] ?? '',
        state: String(body.state),
        context: String(body.name),
        targetUrl: body.target_url as string | undefined,
        description: body.description as string | undefined,
      })
      return 201
    }
    const gitea = /^\/api\/v1\/repos\/([^/]+)\/([^/]+)\/statuses\/([0-9a-f]{40})$/.exec(path)
    if (gitea) {
      if (request.headers.authorization !== `token ${this.token}`)
        return this.#refuse('Gitea: token missing or wrong')
      const unknown = Object.keys(body).filter(
        (key) => !['state', 'context', 'target_url', 'description'].includes(key),
      )
      if (unknown.length) return this.#refuse(`Gitea: unknown fields ${unknown.join(', ')}`)
      if (!giteaStates.includes(String(body.state))) return this.#refuse(`Gitea: state ${String(body.state)}`)
      this.statuses.push({
        forge: 'gitea',
        repository: `${gitea[1]}/${gitea[2]}`,
        sha: gitea[3] ?? '',
        state: String(body.state),
        context: String(body.context),
        targetUrl: body.target_url as string | undefined,
        description: body.description as string | undefined,
      })
      return 201
    }
    return this.#refuse(`no route POST ${path}`)
  }
}
