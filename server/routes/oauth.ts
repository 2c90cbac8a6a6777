/**
 * Sign-in for the CLI: the OAuth 2.0 endpoints (RFC 6749 + PKCE, RFC 8414 metadata, RFC 7009
 * revocation) and the browser-facing steps in between: the hand-off to the upstream identity provider
 * and its callback, or the local sign-in page. Protocol decisions live in AuthorizationServer; this
 * file translates HTTP to and from it.
 *
 *   docsctl ─▶ GET /oauth/authorize ─▶ identity provider (or GET /oauth/sign-in) ─▶ GET /oauth/callback
 *           ◀─ 302 http://127.0.0.1:<port>/…?code&state ◀──────────────────────────┘
 *   docsctl ─▶ POST /oauth/token {code, code_verifier} ─▶ {access_token, refresh_token}
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { AuthorizationServer, CLI_CLIENT_ID } from '../auth/oauth/authorization-server.js'
import { OAuthError } from '../auth/oauth/errors.js'
import { redactedRequestSerializer } from '../auth/oauth/log-redaction.js'
import { chooseIdentityProvider, isLoopbackHost } from '../auth/providers/index.js'
import { LOCAL_SIGN_IN_FIELD, renderMessagePage, renderSignInPage } from '../auth/providers/local.js'
import { type Identity, isEmailAddress, SignInFailed } from '../auth/providers/types.js'
import { newOpaqueId } from '../auth/tokens.js'
import type { OAuthRequestRow } from '../db/repositories/sign-ins.js'

/** The cookie that ties the local sign-in form to the browser that loaded it. */
const SIGN_IN_COOKIE = 'docs_sign_in'
const SIGN_IN_PATH = '/oauth/sign-in'

/**
 * Headers of the flow's HTML pages: no scripts, no framing, nothing cached, no Referer leaking the
 * query. `formTarget` is where the sign-in form may end up: browsers apply form-action to the redirect
 * after a submission, so the CLI's loopback origin is allowed. CSP cannot name an IPv6 address, so for
 * an [::1] redirect URI the directive is left out rather than blocking the sign-in.
 */
function pageHeaders(formTarget?: string): Record<string, string> {
  const base = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'"
  let formAction = "; form-action 'none'"
  if (formTarget !== undefined) {
    const target = new URL(formTarget)
    formAction = target.hostname.startsWith('[') ? '' : `; form-action 'self' ${target.origin}`
  }
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'content-security-policy': base + formAction,
  }
}

/** RFC 6749 §5.1: token responses must not be cached. */
const TOKEN_HEADERS = { 'cache-control': 'no-store', pragma: 'no-cache' }

const oauthErrorResponses = {
  400: { $ref: 'OAuthError#' },
  401: { $ref: 'OAuthError#' },
  429: { $ref: 'Error#' },
}

function sendPage(reply: FastifyReply, status: number, html: string, formTarget?: string): FastifyReply {
  return reply.code(status).headers(pageHeaders(formTarget)).send(html)
}

function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return rest.join('=')
  }
  return undefined
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}

export const oauthRoutes: FastifyPluginAsync = async (app) => {
  // A child context whose request logs go through the redacting serializer.
  // Fastify types serializers as returning strings; pino accepts objects, which keep logs structured.
  const req = redactedRequestSerializer as unknown as (value: unknown) => string
  await app.register(signInRoutes, { logSerializers: { req } })
}

const signInRoutes: FastifyPluginAsync = async (app: FastifyInstance) => {
  const signIn = app.config.signIn
  const publicUrl = signIn.publicUrl
  const callbackUrl = `${publicUrl}/oauth/callback`
  const configuredHost = new URL(publicUrl).host

  /**
   * The API's own origin as this request reached it. On a loopback address (a local server started
   * with another --port) the request's host is used, so discovery works without --public-url; any
   * other host gets the configured public URL, which a forged Host header cannot change.
   */
  const originOf = (request: FastifyRequest): string => {
    const host = request.host
    if (host === configuredHost) return publicUrl
    return isLoopbackHost(host.replace(/:\d+$/, '')) ? `http://${host}` : publicUrl
  }
  const identity = chooseIdentityProvider(signIn, app.config.host)
  // Said once at start, so an operator sees how (and whether) people can sign in.
  if (identity.kind === 'none') app.log.warn(identity.message)
  else app.log.info(identity.message)

  const server = new AuthorizationServer(app.repos)

  // Per IP, whatever token is presented: these endpoints are where secrets are guessed.
  const bruteForceLimit = {
    rateLimit: {
      max: signIn.rateLimitPerMinute,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) => `sign-in:${request.ip}`,
    },
  }

  // OAuth clients post application/x-www-form-urlencoded (RFC 6749 §4.1.3), and so does the sign-in form.
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        const fields: Record<string, string> = {}
        for (const [name, value] of new URLSearchParams(String(body))) {
          // A repeated parameter is ambiguous (RFC 6749 §3.1); keep the first and let validation decide.
          if (!(name in fields)) fields[name] = value
        }
        done(null, fields)
      },
    )
  }

  app.get(
    '/.well-known/oauth-authorization-server',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['oauth'],
        summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
        response: { 200: { $ref: 'OAuthServerMetadata#' } },
      },
    },
    async (request) => {
      const origin = originOf(request)
      return {
        issuer: origin,
        authorization_endpoint: `${origin}/oauth/authorize`,
        token_endpoint: `${origin}/oauth/token`,
        revocation_endpoint: `${origin}/oauth/revoke`,
        userinfo_endpoint: `${origin}/me`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        revocation_endpoint_auth_methods_supported: ['none'],
      }
    },
  )

  app.get(
    '/oauth/authorize',
    {
      config: bruteForceLimit,
      schema: {
        tags: ['oauth'],
        summary: `Start a browser sign-in for the CLI (client_id "${CLI_CLIENT_ID}", PKCE S256, loopback redirect_uri)`,
        querystring: {
          type: 'object',
          properties: {
            response_type: { type: 'string', maxLength: 64 },
            client_id: { type: 'string', maxLength: 64 },
            redirect_uri: { type: 'string', maxLength: 2048 },
            state: { type: 'string', maxLength: 512 },
            code_challenge: { type: 'string', maxLength: 128 },
            code_challenge_method: { type: 'string', maxLength: 16 },
          },
        },
      },
    },
    async (request, reply) => {
      const outcome = server.checkAuthorizeRequest(asRecord(request.query))
      if (outcome.kind === 'show-error')
        return sendPage(reply, 400, renderMessagePage('Sign-in refused', outcome.message))
      if (outcome.kind === 'redirect-error') return reply.redirect(outcome.location, 302)
      if (identity.kind === 'none') {
        return sendPage(reply, 503, renderMessagePage('Sign-in is not configured', identity.message))
      }
      if (identity.kind === 'local') {
        const id = await server.beginSignIn(outcome.request, 'local')
        return reply.redirect(`${originOf(request)}${SIGN_IN_PATH}?request=${encodeURIComponent(id)}`, 302)
      }
      const id = newOpaqueId()
      let upstream: Awaited<ReturnType<typeof identity.provider.authorizationRedirect>>
      try {
        upstream = await identity.provider.authorizationRedirect(id, callbackUrl)
      } catch (error) {
        request.log.warn(
          { provider: identity.provider.label, reason: (error as Error).message },
          'sign-in: provider unavailable',
        )
        return sendPage(reply, 502, renderMessagePage('Sign-in is unavailable', (error as Error).message))
      }
      await server.beginSignIn(outcome.request, identity.provider.kind, upstream, id)
      return reply.redirect(upstream.url, 302)
    },
  )

  /** Ends a pending sign-in with an identity, or with the reason it failed, and returns to the CLI. */
  async function finish(reply: FastifyReply, pending: OAuthRequestRow, who: Identity): Promise<FastifyReply> {
    const completed = await server.completeSignIn(pending, who)
    if (!completed) {
      return sendPage(
        reply,
        400,
        renderMessagePage('Sign-in already finished', 'This sign-in was completed already.'),
      )
    }
    reply.log.info({ userId: completed.user.id }, 'sign-in: code issued')
    // 303: the browser follows a POSTed form with a GET to the CLI's listener.
    return reply.redirect(completed.location, 303)
  }

  app.get(
    '/oauth/callback',
    {
      config: bruteForceLimit,
      schema: {
        tags: ['oauth'],
        summary: 'Where the upstream identity provider returns the browser',
        querystring: {
          type: 'object',
          properties: {
            state: { type: 'string', maxLength: 512 },
            code: { type: 'string', maxLength: 2048 },
          },
        },
      },
    },
    async (request, reply) => {
      const query = asRecord(request.query)
      const state = typeof query.state === 'string' ? query.state : ''
      const pending = state ? await server.findPendingSignIn(state) : undefined
      if (!pending || identity.kind !== 'upstream' || pending.provider !== identity.provider.kind) {
        return sendPage(
          reply,
          400,
          renderMessagePage(
            'Sign-in not recognised',
            'This sign-in link is unknown, expired or was already used.',
          ),
        )
      }
      const current = new URL(request.url, `${publicUrl}/`)
      const answer = new URL(`${callbackUrl}${current.search}`)
      if (answer.searchParams.has('error')) {
        const denied =
          answer.searchParams.get('error_description') ?? answer.searchParams.get('error') ?? 'denied'
        return reply.redirect(
          await server.abandonSignIn(pending, 'access_denied', `Sign-in declined: ${denied}`),
          302,
        )
      }
      try {
        const who = await identity.provider.identify(answer, {
          state: pending.id,
          verifier: pending.upstream_verifier,
          nonce: pending.upstream_nonce,
          redirectUri: callbackUrl,
        })
        return await finish(reply, pending, who)
      } catch (error) {
        if (!(error instanceof SignInFailed)) throw error
        request.log.warn(
          { provider: identity.provider.label, reason: error.message },
          'sign-in: refused by provider',
        )
        return reply.redirect(await server.abandonSignIn(pending, error.code, error.message), 302)
      }
    },
  )

  /** The local provider's page; only reachable for a pending sign-in made while it is the provider. */
  async function localPending(requestId: unknown): Promise<OAuthRequestRow | undefined> {
    if (identity.kind !== 'local' || typeof requestId !== 'string' || requestId.length > 128) return undefined
    const pending = await server.findPendingSignIn(requestId)
    return pending?.provider === 'local' ? pending : undefined
  }

  const expiredPage = renderMessagePage('Sign-in expired', 'This sign-in page is unknown or has expired.')

  async function showSignInForm(
    request: FastifyRequest,
    reply: FastifyReply,
    pending: OAuthRequestRow,
    status: number,
    extra: { email?: string; error?: string } = {},
  ): Promise<FastifyReply> {
    const csrfToken = await server.issueCsrfToken(pending)
    const origin = originOf(request)
    const secure = origin.startsWith('https:') ? '; Secure' : ''
    reply.header(
      'set-cookie',
      `${SIGN_IN_COOKIE}=${csrfToken}; Path=${SIGN_IN_PATH}; HttpOnly; SameSite=Strict; Max-Age=${server.pendingSignInTtl}${secure}`,
    )
    return sendPage(
      reply,
      status,
      renderSignInPage({
        action: SIGN_IN_PATH,
        requestId: pending.id,
        csrfToken,
        serverHost: new URL(origin).host,
        ...extra,
      }),
      pending.redirect_uri,
    )
  }

  app.get(
    SIGN_IN_PATH,
    {
      config: bruteForceLimit,
      schema: {
        tags: ['oauth'],
        summary:
          'Local sign-in page (only when no identity provider is configured and the server is on loopback)',
        querystring: { type: 'object', properties: { request: { type: 'string', maxLength: 128 } } },
      },
    },
    async (request, reply) => {
      const pending = await localPending(asRecord(request.query).request)
      if (!pending) return sendPage(reply, identity.kind === 'local' ? 400 : 404, expiredPage)
      return showSignInForm(request, reply, pending, 200)
    },
  )

  app.post(
    SIGN_IN_PATH,
    {
      config: bruteForceLimit,
      schema: {
        tags: ['oauth'],
        summary: 'Submit the local sign-in form',
        consumes: ['application/x-www-form-urlencoded'],
        body: {
          type: 'object',
          properties: {
            request: { type: 'string', maxLength: 128 },
            csrf: { type: 'string', maxLength: 128 },
            email: { type: 'string', maxLength: 254 },
          },
        },
      },
    },
    async (request, reply) => {
      const form = asRecord(request.body)
      const pending = await localPending(form[LOCAL_SIGN_IN_FIELD.request])
      if (!pending) return sendPage(reply, identity.kind === 'local' ? 400 : 404, expiredPage)
      if (
        !server.checkCsrfToken(pending, form[LOCAL_SIGN_IN_FIELD.csrf], readCookie(request, SIGN_IN_COOKIE))
      ) {
        return sendPage(
          reply,
          403,
          renderMessagePage(
            'Sign-in form expired',
            'The form was not submitted from this browser’s sign-in page.',
          ),
        )
      }
      const email =
        typeof form[LOCAL_SIGN_IN_FIELD.email] === 'string'
          ? String(form[LOCAL_SIGN_IN_FIELD.email]).trim()
          : ''
      if (!isEmailAddress(email)) {
        return showSignInForm(request, reply, pending, 400, {
          email,
          error: 'Enter an email address like you@example.com.',
        })
      }
      reply.header(
        'set-cookie',
        `${SIGN_IN_COOKIE}=; Path=${SIGN_IN_PATH}; HttpOnly; SameSite=Strict; Max-Age=0`,
      )
      return finish(reply, pending, { email: email.toLowerCase(), name: null })
    },
  )

  app.post(
    '/oauth/token',
    {
      config: bruteForceLimit,
      attachValidation: true,
      schema: {
        tags: ['oauth'],
        summary: 'Exchange an authorization code (with its PKCE verifier) or a refresh token for tokens',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: { $ref: 'OAuthTokenRequest#' },
        response: { 200: { $ref: 'OAuthTokenResponse#' }, ...oauthErrorResponses },
      },
    },
    async (request, reply) => {
      reply.headers(TOKEN_HEADERS)
      try {
        if (request.validationError) throw new OAuthError('invalid_request', request.validationError.message)
        const tokens = await server.token(asRecord(request.body))
        return tokens
      } catch (error) {
        if (!(error instanceof OAuthError)) throw error
        if (error.code === 'invalid_client') reply.header('www-authenticate', 'Basic realm="docsctl"')
        return reply.code(error.statusCode).send(error.toBody())
      }
    },
  )

  app.post(
    '/oauth/revoke',
    {
      config: bruteForceLimit,
      attachValidation: true,
      schema: {
        tags: ['oauth'],
        summary: 'Revoke a refresh token (ends the sign-in) or an access token (RFC 7009)',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: { $ref: 'OAuthRevokeRequest#' },
        response: { 200: { type: 'object', additionalProperties: false }, ...oauthErrorResponses },
      },
    },
    async (request, reply) => {
      reply.headers(TOKEN_HEADERS)
      const token = asRecord(request.body).token
      if (request.validationError || typeof token !== 'string') {
        return reply.code(400).send(new OAuthError('invalid_request', 'token is required').toBody())
      }
      await server.revoke(token)
      return {}
    },
  )
}
