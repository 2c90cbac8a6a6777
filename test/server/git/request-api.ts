/**
 * A stand-in for the REST calls a pull/merge request's preview makes on GitLab and Gitea/Forgejo, on
 * loopback, checking each against the documented shape and the bot token: commit statuses (GitLab
 * `POST /api/v4/projects/:id/statuses/:sha`, Gitea `POST /api/v1/repos/:owner/:repo/statuses/:sha`),
 * GitLab merge request notes (`POST /api/v4/projects/:id/merge_requests/:iid/notes`, `PUT …/notes/:id`,
 * https://docs.gitlab.com/api/notes/#merge-requests) and Gitea issue comments
 * (`POST /api/v1/repos/:owner/:repo/issues/:index/comments`, `PATCH …/issues/comments/:id`,
 * https://docs.gitea.com/api/1.22/#tag/issue). A request off the shape is answered 422 and recorded.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestContext } from 'node:test'

export interface RequestApiCall {
  forge: 'gitlab' | 'gitea'
  kind: 'status' | 'comment-created' | 'comment-updated'
  /** The commit (statuses), the request number (created comments) or the comment id (updates). */
  target: string
  body: Record<string, unknown>
}

const gitlabStates = ['pending', 'running', 'success', 'failed', 'canceled', 'skipped']
const giteaStates = ['pending', 'success', 'error', 'failure', 'warning']

export class RequestApi {
  readonly calls: RequestApiCall[] = []
  readonly problems: string[] = []
  /** Comment id → its text now. */
  readonly comments = new Map<string, string>()
  url = ''
  #nextId = 100

  private constructor(readonly token: string) {}

  static async start(t: Pick<TestContext, 'after'>, token: string): Promise<RequestApi> {
    const api = new RequestApi(token)
    const server = createServer((request, response) => {
      api.#handle(request).then(({ status, body }) => {
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(JSON.stringify(body))
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

  #refuse(problem: string) {
    this.problems.push(problem)
    return { status: 422, body: { message: problem } }
  }

  #only(body: Record<string, unknown>, allowed: string[]): string | undefined {
    const unknown = Object.keys(body).filter((key) => !allowed.includes(key))
    return unknown.length ? `unknown fields ${unknown.join(', ')}` : undefined
  }

  async #handle(request: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const path = new URL(request.url ?? '/', 'http://x').pathname
    const method = request.method ?? 'GET'
    if (!String(request.headers['content-type']).startsWith('application/json'))
      return this.#refuse(`${method} ${path}: expected a JSON body`)
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>
    const gitlab = path.startsWith('/api/v4/')
    if (
      gitlab
        ? request.headers['private-token'] !== this.token
        : request.headers.authorization !== `token ${this.token}`
    )
      return this.#refuse(`${method} ${path}: token missing or wrong`)
    const forge = gitlab ? 'gitlab' : 'gitea'
    const record = (kind: RequestApiCall['kind'], target: string) =>
      this.calls.push({ forge, kind, target, body })

    const status = gitlab
      ? /^\/api\/v4\/projects\/[^/]+\/statuses\/([0-9a-f]{40})$/.exec(path)
      : /^\/api\/v1\/repos\/[^/]+\/[^/]+\/statuses\/([0-9a-f]{40})$/.exec(path)
    if (status && method === 'POST') {
      const wrong = gitlab
        ? this.#only(body, ['state', 'ref', 'name', 'context', 'target_url', 'description'])
        : this.#only(body, ['state', 'context', 'target_url', 'description'])
      if (wrong) return this.#refuse(`${path}: ${wrong}`)
      if (!(gitlab ? gitlabStates : giteaStates).includes(String(body.state)))
        return this.#refuse(`${path}: state ${String(body.state)}`)
      record('status', status[1] ?? '')
      return { status: 201, body: { id: this.#nextId++ } }
    }
    const created = gitlab
      ? /^\/api\/v4\/projects\/[^/]+\/merge_requests\/(\d+)\/notes$/.exec(path)
      : /^\/api\/v1\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(path)
    if (created && method === 'POST') {
      const wrong = gitlab ? this.#only(body, ['body', 'internal', 'created_at']) : this.#only(body, ['body'])
      if (wrong || typeof body.body !== 'string') return this.#refuse(`${path}: ${wrong ?? 'no body'}`)
      const id = String(this.#nextId++)
      this.comments.set(id, body.body)
      record('comment-created', created[1] ?? '')
      return { status: 201, body: { id: Number(id), body: body.body } }
    }
    const updated = gitlab
      ? /^\/api\/v4\/projects\/[^/]+\/merge_requests\/\d+\/notes\/(\d+)$/.exec(path)
      : /^\/api\/v1\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path)
    if (updated && method === (gitlab ? 'PUT' : 'PATCH')) {
      const id = updated[1] ?? ''
      if (!this.comments.has(id)) return { status: 404, body: { message: 'no such comment' } }
      const wrong = this.#only(body, ['body'])
      if (wrong || typeof body.body !== 'string') return this.#refuse(`${path}: ${wrong ?? 'no body'}`)
      this.comments.set(id, body.body)
      record('comment-updated', id)
      return { status: 200, body: { id: Number(id), body: body.body } }
    }
    return this.#refuse(`no route ${method} ${path}`)
  }
}
