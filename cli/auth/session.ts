/**
 * The signed-in session as commands use it: discovery of the OAuth endpoints, the token grants, and
 * an API client that refreshes silently (before an expired token is sent, and once on a 401).
 */
import { ApiClient, ApiError, NetworkError, normaliseApiUrl } from '../api.js'
import { readSession, type StoredSession, writeSession } from '../credentials.js'
import { CommandFailure } from './failure.js'

export const defaultApiUrl = 'http://localhost:8080'
export const clientId = 'docsctl'

/** The fields of RFC 8414 metadata the CLI uses. */
export interface AuthServerMetadata {
  authorization_endpoint: string
  token_endpoint: string
  revocation_endpoint?: string
}

interface TokenResponse {
  access_token: string
  token_type: string
  expires_in?: number
  refresh_token?: string
}

/** `--api-url`, then `DOCSCTL_API_URL`, then the stored session's server, then the default. */
export function resolveApiUrl(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  session?: StoredSession,
): string {
  const url = flag ?? env.DOCSCTL_API_URL ?? session?.apiUrl ?? defaultApiUrl
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme')
  } catch {
    throw new CommandFailure(
      `"${url}" is not an http(s) URL. Pass the API address, e.g. --api-url ${defaultApiUrl}`,
    )
  }
  return normaliseApiUrl(url)
}

export async function discover(apiUrl: string): Promise<AuthServerMetadata> {
  const client = new ApiClient({ apiUrl })
  let metadata: Partial<AuthServerMetadata>
  try {
    metadata = (
      await client.request<Partial<AuthServerMetadata>>('GET', '/.well-known/oauth-authorization-server', {
        anonymous: true,
      })
    ).body
  } catch (error) {
    if (error instanceof ApiError)
      throw new CommandFailure(
        `${apiUrl} is not a docs server that offers sign-in (its OAuth metadata answered ${error.status}). Check --api-url.`,
      )
    throw error
  }
  if (typeof metadata?.authorization_endpoint !== 'string' || typeof metadata.token_endpoint !== 'string')
    throw new CommandFailure(`${apiUrl} published OAuth metadata without authorization and token endpoints.`)
  return metadata as AuthServerMetadata
}

async function tokenRequest(
  apiUrl: string,
  tokenEndpoint: string,
  form: Record<string, string>,
): Promise<TokenResponse> {
  const client = new ApiClient({ apiUrl })
  const response = await client.request<TokenResponse>('POST', tokenEndpoint, {
    anonymous: true,
    body: new URLSearchParams({ ...form, client_id: clientId }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  if (typeof response.body?.access_token !== 'string')
    throw new CommandFailure('The token endpoint answered no access token.')
  return response.body
}

const expiresAtFrom = (token: TokenResponse): string | null =>
  typeof token.expires_in === 'number' ? new Date(Date.now() + token.expires_in * 1000).toISOString() : null

export async function exchangeCode(
  apiUrl: string,
  metadata: AuthServerMetadata,
  input: { code: string; verifier: string; redirectUri: string },
): Promise<StoredSession> {
  const token = await tokenRequest(apiUrl, metadata.token_endpoint, {
    grant_type: 'authorization_code',
    code: input.code,
    code_verifier: input.verifier,
    redirect_uri: input.redirectUri,
  })
  return {
    apiUrl,
    accessToken: token.access_token,
    refreshToken: token.refresh_token ?? null,
    expiresAt: expiresAtFrom(token),
    tokenEndpoint: metadata.token_endpoint,
    email: null,
  }
}

/**
 * Trade the refresh token for new tokens and store them. `undefined` when the server refuses it
 * (expired, revoked, reused): the user has to sign in again. Network failures are thrown.
 */
export async function refreshSession(
  session: StoredSession,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StoredSession | undefined> {
  if (!session.refreshToken) return undefined
  let token: TokenResponse
  try {
    token = await tokenRequest(session.apiUrl, session.tokenEndpoint, {
      grant_type: 'refresh_token',
      refresh_token: session.refreshToken,
    })
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return undefined
    throw error
  }
  const next: StoredSession = {
    ...session,
    accessToken: token.access_token,
    // Refresh tokens rotate; keep the old one only if the server chose not to send a new one.
    refreshToken: token.refresh_token ?? session.refreshToken,
    expiresAt: expiresAtFrom(token),
  }
  await writeSession(next, env)
  return next
}

export const loginHint = (apiUrl: string): string =>
  apiUrl === defaultApiUrl ? 'docsctl login' : `docsctl login --api-url ${apiUrl}`

const isExpired = (session: StoredSession): boolean =>
  session.expiresAt !== null && Date.parse(session.expiresAt) - Date.now() < 30_000

export interface SignedIn {
  client: ApiClient
  session: StoredSession
}

/**
 * A client for the stored session, refreshed first when it has expired. Throws a CommandFailure that
 * says to run `login` when there is no session, it is for another server, or it cannot be refreshed.
 */
export async function requireSession(
  apiUrlFlag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SignedIn> {
  const stored = await readSession(env)
  const apiUrl = resolveApiUrl(apiUrlFlag, env, stored)
  // An address given for a server other than the signed-in one: when it is mistyped or down, say
  // so rather than "sign in".
  const explicit = (apiUrlFlag ?? env.DOCSCTL_API_URL) !== undefined
  if (explicit && (!stored || normaliseApiUrl(stored.apiUrl) !== apiUrl))
    await ensureReachable(apiUrl, stored)
  if (!stored) throw new CommandFailure(`You are not signed in. Run \`${loginHint(apiUrl)}\` first.`)
  if (normaliseApiUrl(stored.apiUrl) !== apiUrl)
    throw new CommandFailure(
      `You are signed in to ${stored.apiUrl}, not ${apiUrl}. Run \`${loginHint(apiUrl)}\` first.`,
    )
  let session: StoredSession = stored
  if (isExpired(session)) {
    const refreshed = await refreshSession(session, env)
    if (!refreshed)
      throw new CommandFailure(`Your session has expired. Run \`${loginHint(apiUrl)}\` to sign in again.`)
    session = refreshed
  }
  const holder = { session }
  // Parallel uploads can all meet the same expired token. Presenting a rotated refresh token twice is a
  // replay that ends the whole session, so one refresh serves every request that was refused.
  let refreshing: Promise<string | undefined> | undefined
  const client = new ApiClient({
    apiUrl,
    token: () => holder.session.accessToken,
    refresh: (refused) => {
      if (refused !== holder.session.accessToken) return Promise.resolve(holder.session.accessToken)
      refreshing ??= refreshSession(holder.session, env)
        .then((refreshed) => {
          if (refreshed) holder.session = refreshed
          return refreshed?.accessToken
        })
        .finally(() => {
          refreshing = undefined
        })
      return refreshing
    },
  })
  return {
    client,
    get session() {
      return holder.session
    },
  }
}

/**
 * Throws a NetworkError (with a did-you-mean for a host a letter or two off `localhost` or the
 * signed-in server's) when nothing answers at `apiUrl`. Any HTTP answer counts as reachable.
 */
async function ensureReachable(apiUrl: string, stored: StoredSession | undefined): Promise<void> {
  const client = new ApiClient({ apiUrl, attempts: 1 })
  try {
    await client.request('GET', '/health', { anonymous: true })
  } catch (error) {
    if (!(error instanceof NetworkError)) return
    const knownHosts = stored ? [new URL(stored.apiUrl).hostname] : []
    throw new NetworkError(apiUrl, error.cause, knownHosts)
  }
}

/**
 * End the sign-in on the server, as the dashboard's sign-out does: the refresh token (which ends the
 * whole sign-in, every access token it issued) or else the access token goes to the server's
 * RFC 7009 revocation endpoint, found by discovery.
 */
export async function revokeSession(session: StoredSession): Promise<void> {
  const metadata = await discover(session.apiUrl)
  const endpoint = metadata.revocation_endpoint
  if (!endpoint) throw new CommandFailure(`${session.apiUrl} publishes no revocation endpoint`)
  await new ApiClient({ apiUrl: session.apiUrl, attempts: 2 }).request('POST', endpoint, {
    anonymous: true,
    body: new URLSearchParams({
      token: session.refreshToken ?? session.accessToken,
      client_id: clientId,
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
}

/** Translate a 401 from a session-authenticated call into "sign in again". */
export function sessionFailure(error: unknown, apiUrl: string): unknown {
  if (error instanceof ApiError && error.status === 401)
    return new CommandFailure(
      `Your session has expired or was revoked. Run \`${loginHint(apiUrl)}\` to sign in again.`,
    )
  return error
}
