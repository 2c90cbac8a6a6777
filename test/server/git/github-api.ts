/**
 * A stand-in for GitHub's REST API on loopback that checks what it is sent against GitHub's
 * documented shapes: installation access tokens are asked with an RS256 JWT of the App
 * (https://docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app/generating-a-json-web-token-jwt-for-a-github-app),
 * and commit statuses are created with that token
 * (https://docs.github.com/rest/commits/statuses#create-a-commit-status). A request off the documented
 * shape is answered 422 and recorded in `problems`.
 */
import { generateKeyPairSync, randomBytes, verify } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestContext } from 'node:test'

export interface RecordedStatus {
  owner: string
  repo: string
  sha: string
  state: string
  target_url?: string | null
  description?: string | null
  context?: string
}

const states = ['error', 'failure', 'pending', 'success']
const conclusions = [
  'action_required',
  'cancelled',
  'failure',
  'neutral',
  'success',
  'skipped',
  'stale',
  'timed_out',
]

/** A check run or comment call (https://docs.github.com/rest/checks/runs, …/rest/issues/comments). */
export interface RecordedCall {
  kind: 'check-run-created' | 'check-run-updated' | 'comment-created' | 'comment-updated'
  owner: string
  repo: string
  /** The check run or comment id (updates), the head SHA (check runs) or the issue number (comments). */
  target: string
  body: Record<string, unknown>
}

export class GitHubApi {
  readonly appId = '424242'
  readonly privateKey: string
  readonly #publicKey: string
  /** Installation id → tokens issued for it. */
  readonly issued = new Map<string, string[]>()
  readonly statuses: RecordedStatus[] = []
  readonly calls: RecordedCall[] = []
  /** Check run id → its state now; comment id → its text now. */
  readonly checkRuns = new Map<string, Record<string, unknown>>()
  readonly comments = new Map<string, string>()
  readonly problems: string[] = []
  #nextId = 1000
  url = ''

  private constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    this.privateKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    this.#publicKey = publicKey.export({ type: 'spki', format: 'pem' }).toString()
  }

  static async start(t: Pick<TestContext, 'after'>): Promise<GitHubApi> {
    const api = new GitHubApi()
    const server = createServer((request, response) => {
      api.#handle(request).then(({ status, body }) => {
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
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

  /** The App's JWT: RS256, signed by the App's key, `iss` the App id, at most 10 minutes long. */
  #jwtProblem(authorization: string | undefined): string | undefined {
    const jwt = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1]
    if (!jwt) return 'expected Authorization: Bearer <JWT>'
    const [header = '', payload = '', signature = ''] = jwt.split('.')
    const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string }
    if (head.alg !== 'RS256') return `JWT alg ${head.alg}, expected RS256`
    const valid = verify(
      'RSA-SHA256',
      Buffer.from(`${header}.${payload}`),
      this.#publicKey,
      Buffer.from(signature, 'base64url'),
    )
    if (!valid) return 'JWT signature does not verify with the App key'
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
      iss?: unknown
      iat?: number
      exp?: number
    }
    if (String(claims.iss) !== this.appId) return `JWT iss ${String(claims.iss)}, expected ${this.appId}`
    if (!claims.iat || !claims.exp || claims.exp - claims.iat > 600)
      return 'JWT iat/exp missing or over 10 minutes'
    return undefined
  }

  async #handle(request: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    const path = new URL(request.url ?? '/', 'http://x').pathname
    if (!request.headers['user-agent']) return this.#refuse('no User-Agent header')
    if (!String(request.headers.accept ?? '').includes('application/vnd.github'))
      return this.#refuse(`Accept ${String(request.headers.accept)}, expected application/vnd.github+json`)

    const tokenRequest = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path)
    if (request.method === 'POST' && tokenRequest) {
      const problem = this.#jwtProblem(request.headers.authorization)
      if (problem) return { status: 401, body: { message: this.#refuse(problem).body.message } }
      const installationId = tokenRequest[1] ?? ''
      const token = `ghs_${randomBytes(18).toString('base64url')}`
      this.issued.set(installationId, [...(this.issued.get(installationId) ?? []), token])
      return {
        status: 201,
        body: {
          token,
          expires_at: new Date(Date.now() + 3600_000).toISOString(),
          permissions: { contents: 'read', statuses: 'write' },
          repository_selection: 'selected',
        },
      }
    }

    const statusRequest = /^\/repos\/([^/]+)\/([^/]+)\/statuses\/([0-9a-f]{40})$/.exec(path)
    if (request.method === 'POST' && statusRequest) {
      const token = /^(?:token|Bearer) (ghs_\S+)$/i.exec(request.headers.authorization ?? '')?.[1]
      const known = [...this.issued.values()].flat()
      if (!token || !known.includes(token)) return this.#refuse('a status needs an installation token')
      if (!String(request.headers['content-type']).startsWith('application/json'))
        return this.#refuse('expected a JSON body')
      const body = JSON.parse(text) as Record<string, unknown>
      const allowed = ['state', 'target_url', 'description', 'context']
      const unknown = Object.keys(body).filter((key) => !allowed.includes(key))
      if (unknown.length > 0) return this.#refuse(`unknown fields ${unknown.join(', ')}`)
      if (!states.includes(String(body.state))) return this.#refuse(`state ${String(body.state)}`)
      for (const key of ['target_url', 'description', 'context'])
        if (body[key] !== undefined && body[key] !== null && typeof body[key] !== 'string')
          return this.#refuse(`${key} must be a string`)
      const [, owner = '', repo = '', sha = ''] = statusRequest
      this.statuses.push({ owner, repo, sha, ...(body as Omit<RecordedStatus, 'owner' | 'repo' | 'sha'>) })
      return { status: 201, body: { id: this.statuses.length, state: body.state, context: body.context } }
    }
    const requestCall = this.#requestCall(request.method ?? 'GET', path, request.headers.authorization, text)
    if (requestCall) return requestCall
    return this.#refuse(`no route ${request.method} ${path}`)
  }

  /** Check runs and pull request comments, with an installation token and the documented fields. */
  #requestCall(
    method: string,
    path: string,
    authorization: string | undefined,
    text: string,
  ): { status: number; body: unknown } | undefined {
    const route =
      /^\/repos\/([^/]+)\/([^/]+)\/(check-runs(?:\/(\d+))?|issues\/(\d+)\/comments|issues\/comments\/(\d+))$/.exec(
        path,
      )
    if (!route) return undefined
    const [, owner = '', repo = '', what = ''] = route
    const token = /^(?:token|Bearer) (ghs_\S+)$/i.exec(authorization ?? '')?.[1]
    if (!token || ![...this.issued.values()].flat().includes(token))
      return this.#refuse(`${method} ${path} needs an installation token`)
    const body = JSON.parse(text || '{}') as Record<string, unknown>
    const only = (allowed: string[]) => Object.keys(body).filter((key) => !allowed.includes(key))
    const record = (kind: RecordedCall['kind'], target: string) =>
      this.calls.push({ kind, owner, repo, target, body })
    if (what === 'check-runs' && method === 'POST') {
      const unknown = only([
        'name',
        'head_sha',
        'status',
        'details_url',
        'external_id',
        'started_at',
        'output',
      ])
      if (unknown.length) return this.#refuse(`check run: unknown fields ${unknown.join(', ')}`)
      if (typeof body.name !== 'string' || !/^[0-9a-f]{40}$/.test(String(body.head_sha)))
        return this.#refuse('check run: name and head_sha are required')
      const id = String(this.#nextId++)
      this.checkRuns.set(id, body)
      record('check-run-created', String(body.head_sha))
      return { status: 201, body: { id: Number(id), head_sha: body.head_sha, status: body.status } }
    }
    const checkRunId = route[4]
    if (checkRunId && method === 'PATCH') {
      if (!this.checkRuns.has(checkRunId)) return { status: 404, body: { message: 'Not Found' } }
      const unknown = only(['name', 'details_url', 'status', 'conclusion', 'completed_at', 'output'])
      if (unknown.length) return this.#refuse(`check run: unknown fields ${unknown.join(', ')}`)
      if (body.status === 'completed' && !conclusions.includes(String(body.conclusion)))
        return this.#refuse(`check run: conclusion ${String(body.conclusion)}`)
      const output = body.output as { title?: unknown; summary?: unknown } | undefined
      if (output && (typeof output.title !== 'string' || typeof output.summary !== 'string'))
        return this.#refuse('check run: output needs a title and a summary')
      if (output && String(output.summary).length > 65_535) return this.#refuse('check run: summary too long')
      this.checkRuns.set(checkRunId, { ...this.checkRuns.get(checkRunId), ...body })
      record('check-run-updated', checkRunId)
      return { status: 200, body: { id: Number(checkRunId) } }
    }
    const issue = route[5]
    if (issue && method === 'POST') {
      if (only(['body']).length || typeof body.body !== 'string') return this.#refuse('comment: only a body')
      const id = String(this.#nextId++)
      this.comments.set(id, body.body)
      record('comment-created', issue)
      return { status: 201, body: { id: Number(id), body: body.body } }
    }
    const commentId = route[6]
    if (commentId && method === 'PATCH') {
      if (!this.comments.has(commentId)) return { status: 404, body: { message: 'Not Found' } }
      if (only(['body']).length || typeof body.body !== 'string') return this.#refuse('comment: only a body')
      this.comments.set(commentId, body.body)
      record('comment-updated', commentId)
      return { status: 200, body: { id: Number(commentId), body: body.body } }
    }
    return this.#refuse(`no route ${method} ${path}`)
  }
}
