/**
 * The typed REST client of `docsctl`: one place that knows the API's paths and shapes (see the API
 * contract), retries what is worth retrying and refreshes a session once when the server says 401.
 */

import { distance } from 'fastest-levenshtein'
import { packageVersion } from '../lib/version.js'
import type * as schemas from '../schemas/api/index.js'
import type { Input, Shape } from '../schemas/api/index.js'

// Every shape comes from schemas/api, the same objects the server validates and serialises with.
export type ApiIssue = NonNullable<Shape<typeof schemas.ErrorBody>['issues']>[number]
export type ApiDiagnostic = Shape<typeof schemas.Diagnostic>
export type Project = Shape<typeof schemas.Project>
export type Deployment = Shape<typeof schemas.Deployment>
export type ChangeReport = Shape<typeof schemas.ChangeReport>
export type DeploymentStatus = Deployment['status']
export type ManifestEntry = Shape<typeof schemas.ManifestEntry>
export type DeployKeyRecord = Shape<typeof schemas.DeployKey>
export type AnalyticsConfig = Shape<typeof schemas.AnalyticsSettings>
export type PosthogSettings = NonNullable<AnalyticsConfig['posthog']>
export type User = Shape<typeof schemas.Me>
export type GitSettings = Shape<typeof schemas.GitSettings>
export type GitConnectionInput = Input<typeof schemas.GitConnectionUpdate>
type DeploymentCreated = Shape<typeof schemas.DeploymentCreated>
type FilesBatchResult = Shape<typeof schemas.FilesBatchResult>
type ChunkResult = Shape<typeof schemas.ChunkResult>
type FailedBuild = Shape<typeof schemas.FailedBuild>
type DiagnosticList = Shape<typeof schemas.DiagnosticList>
type DeployKeyCreated = Shape<typeof schemas.DeployKeyCreated>
export type Domain = Shape<typeof schemas.Domain>
export type DomainStatus = Domain['status']
export type DnsRecord = Shape<typeof schemas.DnsRecord>
export type InsightsReport = Shape<typeof schemas.InsightsReport>

/** The server answered with an error status; `message` is the server's `error` text. */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly status: number,
    message: string,
    readonly issues: ApiIssue[],
    readonly body: unknown,
  ) {
    super(message)
  }
  /** The error followed by one indented line per issue, as a person should read it. */
  describe(): string {
    return [this.message, ...this.issues.map((issue) => `  ${issue.path}: ${issue.message}`)].join('\n')
  }
}

/** The server could not be reached at all (refused, DNS, reset), after the retries. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError'
  constructor(
    readonly apiUrl: string,
    override readonly cause: unknown,
    knownHosts: readonly string[] = [],
  ) {
    const reason = describeCause(cause)
    const suggestion = misspeltApiUrl(apiUrl, knownHosts)
    super(
      `Cannot reach the docs server at ${apiUrl} (${reason}).${suggestion ? ` Did you mean ${suggestion}?` : ''} Check that it is running and that --api-url or DOCSCTL_API_URL points at it.`,
    )
  }
}

/**
 * `http://locahost:8080` → `http://localhost:8080`: the address with its host replaced by a known one
 * (`localhost`, or the signed-in server's) that is a letter or two away; `undefined` when none is.
 */
export function misspeltApiUrl(apiUrl: string, knownHosts: readonly string[] = []): string | undefined {
  let url: URL
  try {
    url = new URL(apiUrl)
  } catch {
    return undefined
  }
  const host = url.hostname.toLowerCase()
  const near = ['localhost', ...knownHosts]
    .map((known) => known.toLowerCase())
    .filter((known) => known !== host)
    .map((known) => ({ known, d: distance(host, known) }))
    .filter(({ d }) => d > 0 && d <= Math.min(2, Math.floor(host.length / 3)))
    .sort((a, b) => a.d - b.d)[0]
  if (!near) return undefined
  url.hostname = near.known
  return normaliseApiUrl(url.toString())
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = (cause as Error & { cause?: unknown }).cause
    if (inner instanceof Error) return (inner as NodeJS.ErrnoException).code ?? inner.message
    return cause.message
  }
  return String(cause)
}

export interface ApiClientOptions {
  apiUrl: string
  /** The bearer token to send, read before every attempt (a refresh may have replaced it). */
  token?: () => string | undefined
  /**
   * Called once per request on a 401 with the token the server refused; answers a token to retry with,
   * or `undefined` when none can be had.
   */
  refresh?: (refused: string | undefined) => Promise<string | undefined>
  /** Attempts for transient failures (network errors, 429, 502, 503, 504); default 4. */
  attempts?: number
  /** Base delay of the exponential backoff in ms; default 300. Tests make it small. */
  backoffMs?: number
  /** Longest wait honoured from a Retry-After header, in ms; default 30 s. */
  maxRetryAfterMs?: number
  fetch?: typeof fetch
}

interface RequestOptions {
  json?: unknown
  body?: BodyInit
  headers?: Record<string, string>
  /** Statuses answered as a value rather than thrown (finalize's 202 and 422). */
  accept?: readonly number[]
  /** Send no Authorization header (discovery, token exchange). */
  anonymous?: boolean
  /** A successful answer's body as text (CSV), not parsed as JSON; errors are still JSON. */
  text?: boolean
}

export interface ApiResponse<T> {
  status: number
  body: T
}

const transientStatuses = new Set([429, 502, 503, 504])

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** `Retry-After` as seconds or an HTTP date, in ms; `undefined` when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

export const normaliseApiUrl = (url: string): string => url.replace(/\/+$/, '')

export class ApiClient {
  readonly apiUrl: string
  readonly #options: ApiClientOptions
  readonly #fetch: typeof fetch

  constructor(options: ApiClientOptions) {
    this.apiUrl = normaliseApiUrl(options.apiUrl)
    this.#options = options
    this.#fetch = options.fetch ?? fetch
  }

  /** One call with retries; throws ApiError for an unaccepted error status, NetworkError when unreachable. */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = /^https?:\/\//.test(path) ? path : `${this.apiUrl}${path}`
    const attempts = this.#options.attempts ?? 4
    const backoff = this.#options.backoffMs ?? 300
    let refreshed = false
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = {
        'user-agent': `docsctl/${packageVersion}`,
        accept: 'application/json',
        ...options.headers,
      }
      const token = options.anonymous ? undefined : this.#options.token?.()
      if (token) headers.authorization = `Bearer ${token}`
      let body = options.body
      if (options.json !== undefined) {
        headers['content-type'] = 'application/json'
        body = JSON.stringify(options.json)
      }
      let response: Response
      try {
        response = await this.#fetch(url, { method, headers, ...(body === undefined ? {} : { body }) })
      } catch (error) {
        if (attempt >= attempts) throw new NetworkError(this.apiUrl, error)
        await sleep(backoff * 2 ** (attempt - 1) * (1 + Math.random() / 2))
        continue
      }
      if (transientStatuses.has(response.status) && attempt < attempts) {
        await response.body?.cancel()
        const hinted = retryAfterMs(response.headers.get('retry-after'))
        const wait = hinted ?? backoff * 2 ** (attempt - 1) * (1 + Math.random() / 2)
        await sleep(Math.min(wait, this.#options.maxRetryAfterMs ?? 30_000))
        continue
      }
      if (response.status === 401 && !refreshed && !options.anonymous && this.#options.refresh) {
        refreshed = true
        if (await this.#options.refresh(token)) {
          await response.body?.cancel()
          attempt--
          continue
        }
      }
      return this.#finish<T>(response, options)
    }
  }

  async #finish<T>(response: Response, options: RequestOptions): Promise<ApiResponse<T>> {
    const text = await response.text()
    if (options.text && response.ok) return { status: response.status, body: text as T }
    let parsed: unknown
    if (text.length > 0) {
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = undefined
      }
    }
    if (response.ok || options.accept?.includes(response.status)) {
      return { status: response.status, body: parsed as T }
    }
    throw errorFromResponse(response, parsed)
  }

  // Identity
  me = async (): Promise<User> => (await this.request<User>('GET', '/me')).body

  // Projects
  listProjects = async (): Promise<Project[]> =>
    (await this.request<Shape<typeof schemas.ProjectList>>('GET', '/projects/')).body.projects
  createProject = async (input: Input<typeof schemas.ProjectCreate>): Promise<Project> =>
    (await this.request<Project>('POST', '/projects/', { json: input })).body
  /** The project with this slug, or `undefined` when the server answers 404. */
  async findProjectBySlug(slug: string): Promise<Project | undefined> {
    const found = await this.lookUpSlug(slug)
    return 'project' in found ? found.project : undefined
  }

  /** The signed-in user's project with this slug, or whether the slug is free or another account's. */
  async lookUpSlug(slug: string): Promise<{ project: Project } | { taken: boolean }> {
    const response = await this.request<Project | { issues?: { message: string }[] }>(
      'GET',
      `/projects/slug/${encodeURIComponent(slug)}`,
      { accept: [404] },
    )
    if (response.status !== 404) return { project: response.body as Project }
    const issues = (response.body as { issues?: { message: string }[] } | undefined)?.issues ?? []
    return { taken: issues.some((issue) => issue.message === 'taken') }
  }

  // Deployments
  createDeployment = async (
    slug: string,
    input: Input<typeof schemas.DeploymentCreate>,
  ): Promise<DeploymentCreated> =>
    (await this.request<DeploymentCreated>('POST', deploymentsPath(slug), { json: input })).body

  /** One multipart request; each part's field name is the file's path in the manifest. */
  async uploadBatch(
    slug: string,
    deploymentId: string,
    files: readonly { path: string; bytes: Uint8Array }[],
  ): Promise<FilesBatchResult> {
    const form = new FormData()
    for (const file of files) {
      form.append(
        file.path,
        new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }),
        file.path.split('/').pop(),
      )
    }
    const path = `${deploymentsPath(slug)}/${encodeURIComponent(deploymentId)}/files/batch`
    return (await this.request<FilesBatchResult>('POST', path, { body: form })).body
  }

  async uploadChunk(
    slug: string,
    deploymentId: string,
    sha256: string,
    offset: number,
    bytes: Uint8Array,
  ): Promise<ChunkResult> {
    const path = `${deploymentsPath(slug)}/${encodeURIComponent(deploymentId)}/files/chunks/${sha256}?offset=${offset}`
    return (
      await this.request<ChunkResult>('PUT', path, {
        body: bytes as Uint8Array<ArrayBuffer>,
        headers: { 'content-type': 'application/octet-stream' },
      })
    ).body
  }

  /** 200 ready, 202 still building, 422 failed build: all three answered with the deployment. */
  async finalize(
    slug: string,
    deploymentId: string,
    input: Input<typeof schemas.Finalize>,
  ): Promise<{ status: number; deployment: Deployment; error?: string }> {
    const path = `${deploymentsPath(slug)}/${encodeURIComponent(deploymentId)}/finalize`
    const response = await this.request<Deployment | FailedBuild>('POST', path, {
      json: input,
      accept: [202, 422],
    })
    const body = response.body
    if ('deployment' in body)
      return { status: response.status, deployment: body.deployment, error: body.error }
    return { status: response.status, deployment: body }
  }

  getDeployment = async (slug: string, deploymentId: string): Promise<Deployment> =>
    (await this.request<Deployment>('GET', `${deploymentsPath(slug)}/${encodeURIComponent(deploymentId)}`))
      .body

  /** A ready preview's change report against the live deployment (made on the server when first asked). */
  getChangeReport = async (slug: string, deploymentId: string): Promise<ChangeReport> =>
    (
      await this.request<ChangeReport>(
        'GET',
        `${deploymentsPath(slug)}/${encodeURIComponent(deploymentId)}/report`,
      )
    ).body

  /** One page of a deployment's diagnostics, errors first; `nextCursor` is null on the last. */
  listDiagnostics = async (
    slug: string,
    deploymentId: string,
    page: { limit?: number; cursor?: string } = {},
  ): Promise<DiagnosticList> => {
    const query = new URLSearchParams({ limit: String(page.limit ?? 500) })
    if (page.cursor !== undefined) query.set('cursor', page.cursor)
    const path = `${deploymentsPath(slug)}/${encodeURIComponent(deploymentId)}/diagnostics?${query}`
    return (await this.request<DiagnosticList>('GET', path)).body
  }

  /**
   * Every diagnostic of the deployment: those it carries when they are all, else every page of them
   * (a server keeps at most 256 KB of a build's diagnostics).
   */
  async allDiagnostics(slug: string, deployment: Deployment): Promise<ApiDiagnostic[]> {
    const carried = deployment.diagnostics ?? []
    if (carried.length >= deployment.diagnosticCount) return carried
    const all: ApiDiagnostic[] = []
    let cursor: string | undefined
    do {
      const page = await this.listDiagnostics(slug, deployment.id, cursor === undefined ? {} : { cursor })
      all.push(...page.diagnostics)
      cursor = page.nextCursor ?? undefined
    } while (cursor !== undefined)
    return all
  }

  // Deploy keys
  createDeployKey = async (projectId: string, name: string): Promise<DeployKeyCreated> => {
    const input: Input<typeof schemas.DeployKeyCreate> = { name }
    const path = `/projects/${encodeURIComponent(projectId)}/deploy-keys`
    return (await this.request<DeployKeyCreated>('POST', path, { json: input })).body
  }

  // Analytics
  getAnalytics = async (projectId: string): Promise<AnalyticsConfig> =>
    (await this.request<AnalyticsConfig>('GET', analyticsPath(projectId))).body
  setPosthog = async (
    projectId: string,
    input: Omit<Input<typeof schemas.AnalyticsUpdate>, 'provider'>,
  ): Promise<AnalyticsConfig> => {
    const body: Input<typeof schemas.AnalyticsUpdate> = { provider: 'posthog', ...input }
    return (await this.request<AnalyticsConfig>('PUT', analyticsPath(projectId), { json: body })).body
  }
  unsetAnalytics = async (projectId: string): Promise<void> => {
    await this.request<unknown>('DELETE', analyticsPath(projectId))
  }

  // Reader insights
  getInsights = async (projectId: string, range: InsightsRange = {}): Promise<InsightsReport> =>
    (await this.request<InsightsReport>('GET', insightsPath(projectId, '', range))).body
  /** The same report as one CSV file (`table,key,day,total,detail`). */
  getInsightsCsv = async (projectId: string, range: InsightsRange = {}): Promise<string> =>
    (
      await this.request<string>('GET', insightsPath(projectId, '.csv', range), {
        headers: { accept: 'text/csv, application/json' },
        text: true,
      })
    ).body
  setInsightsEnabled = async (projectId: string, enabled: boolean): Promise<void> => {
    const body: Input<typeof schemas.InsightsSettings> = { enabled }
    await this.request<unknown>('PUT', `/projects/${encodeURIComponent(projectId)}/insights/settings`, {
      json: body,
    })
  }

  // Git connection
  getGit = async (projectId: string): Promise<GitSettings> =>
    (await this.request<GitSettings>('GET', gitPath(projectId))).body
  connectGit = async (projectId: string, input: GitConnectionInput): Promise<GitSettings> =>
    (await this.request<GitSettings>('PUT', gitPath(projectId), { json: input })).body
  disconnectGit = async (projectId: string): Promise<void> => {
    await this.request<unknown>('DELETE', gitPath(projectId))
  }

  // Custom domains
  listDomains = async (projectId: string): Promise<Domain[]> =>
    (await this.request<Shape<typeof schemas.DomainList>>('GET', domainsPath(projectId))).body.domains
  addDomain = async (projectId: string, input: Input<typeof schemas.DomainCreate>): Promise<Domain> =>
    (await this.request<Domain>('POST', domainsPath(projectId), { json: input })).body
  removeDomain = async (projectId: string, domainId: string): Promise<void> => {
    await this.request<unknown>('DELETE', `${domainsPath(projectId)}/${encodeURIComponent(domainId)}`)
  }
  verifyDomain = async (projectId: string, domainId: string): Promise<Domain> =>
    (await this.request<Domain>('POST', `${domainsPath(projectId)}/${encodeURIComponent(domainId)}/verify`))
      .body

  // Projects, deployments and deploy keys as `docsctl projects|deployments|keys` manage them
  getProject = async (projectId: string): Promise<Project> =>
    (await this.request<Project>('GET', `/projects/${encodeURIComponent(projectId)}`)).body
  deleteProject = async (projectId: string): Promise<void> => {
    await this.request<unknown>('DELETE', `/projects/${encodeURIComponent(projectId)}`)
  }
  /** One page, newest first; `nextCursor` is null on the last. */
  listDeployments = async (
    slug: string,
    page: { limit?: number; cursor?: string } = {},
  ): Promise<{ deployments: Deployment[]; nextCursor: string | null }> => {
    const query = new URLSearchParams({ limit: String(page.limit ?? 20) })
    if (page.cursor !== undefined) query.set('cursor', page.cursor)
    return (
      await this.request<{ deployments: Deployment[]; nextCursor: string | null }>(
        'GET',
        `${deploymentsPath(slug)}?${query}`,
      )
    ).body
  }
  promoteDeployment = async (slug: string, deploymentId: string): Promise<Deployment> =>
    (
      await this.request<Deployment>(
        'POST',
        `${deploymentsPath(slug)}/${encodeURIComponent(deploymentId)}/promote`,
      )
    ).body
  listDeployKeys = async (projectId: string): Promise<DeployKeyRecord[]> =>
    (
      await this.request<{ deployKeys: DeployKeyRecord[] }>(
        'GET',
        `/projects/${encodeURIComponent(projectId)}/deploy-keys`,
      )
    ).body.deployKeys
  revokeDeployKey = async (projectId: string, keyId: string): Promise<void> => {
    await this.request<unknown>(
      'DELETE',
      `/projects/${encodeURIComponent(projectId)}/deploy-keys/${encodeURIComponent(keyId)}`,
    )
  }
}

const deploymentsPath = (slug: string) => `/projects/slug/${encodeURIComponent(slug)}/deployments`
const analyticsPath = (projectId: string) => `/projects/${encodeURIComponent(projectId)}/analytics`
const gitPath = (projectId: string) => `/projects/${encodeURIComponent(projectId)}/git`

/** A range of UTC days (YYYY-MM-DD) and rows per table; the server's defaults where left out. */
export interface InsightsRange {
  from?: string
  to?: string
  limit?: number
}

function insightsPath(projectId: string, suffix: '' | '.csv', range: InsightsRange): string {
  const query = new URLSearchParams()
  if (range.from !== undefined) query.set('from', range.from)
  if (range.to !== undefined) query.set('to', range.to)
  if (range.limit !== undefined) query.set('limit', String(range.limit))
  return `/projects/${encodeURIComponent(projectId)}/insights${suffix}${query.size ? `?${query}` : ''}`
}
const domainsPath = (projectId: string) => `/projects/${encodeURIComponent(projectId)}/domains`

function errorFromResponse(response: Response, parsed: unknown): ApiError {
  const record = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {}
  const issues = Array.isArray(record.issues)
    ? record.issues.flatMap((issue: unknown) => {
        if (typeof issue !== 'object' || issue === null) return []
        const { path, message } = issue as Record<string, unknown>
        return [{ path: String(path ?? ''), message: String(message ?? '') }]
      })
    : []
  const message =
    typeof record.error === 'string' && record.error.length > 0
      ? record.error
      : `The server answered ${response.status} ${response.statusText || ''}`.trim()
  return new ApiError(response.status, message, issues, parsed)
}
