/**
 * Sign-in for the CLI, the OAuth 2.0 side: the protocol endpoints (RFC 6749 + PKCE, RFC 8414
 * metadata, RFC 7009 revocation). The browser pages in between live in sign-in.ts. Protocol
 * decisions live in AuthorizationServer; this file translates HTTP to and from it.
 *
 *   docsctl ─▶ GET /oauth/authorize ─▶ identity provider (or GET /oauth/sign-in) ─▶ GET /oauth/callback
 *           ◀─ 302 http://127.0.0.1:<port>/…?code&state ◀──────────────────────────┘
 *   docsctl ─▶ POST /oauth/token {code, code_verifier} ─▶ {access_token, refresh_token}
 */
import cookie from '@fastify/cookie'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import {
  AuthorizeQuery,
  OAuthError as OAuthErrorBody,
  OAuthRevokeRequest,
  OAuthRevokeResponse,
  OAuthServerMetadata,
  OAuthTokenRequest,
  OAuthTokenResponse,
  rateLimitedResponse,
  ref,
} from '../../schemas/api/index.js'
import { DASHBOARD_CALLBACK_PATH } from '../auth/dashboard-session.js'
import { apiOrigin } from '../auth/oauth/api-origin.js'
import { AuthorizationServer, CLI_CLIENT_ID } from '../auth/oauth/authorization-server.js'
import { OAuthError } from '../auth/oauth/errors.js'
import { redactedRequestSerializer } from '../auth/oauth/log-redaction.js'
import { chooseIdentityProvider } from '../auth/providers/index.js'
import { renderMessagePage } from '../auth/providers/local.js'
import type { ApiRoutes } from '../schemas.js'
import { newOpaqueId } from '../tokens.js'
import { refuseForwardedLocalSignIn, SIGN_IN_PATH, sendPage, signInPageRoutes } from './sign-in.js'

/** What the protocol endpoints and the sign-in pages share: one authorization server per app. */
export interface SignInFlow {
  server: AuthorizationServer
  identity: ReturnType<typeof chooseIdentityProvider>
  /** The API's own origin as a request reached it. */
  originOf: (request: FastifyRequest) => string
  publicUrl: string
  /** Where the upstream identity provider sends the browser back. */
  callbackUrl: string
  /** Route config: a per-IP rate limit, since these endpoints are where secrets are guessed. */
  bruteForceLimit: {
    rateLimit: { max: number; timeWindow: number; keyGenerator: (request: FastifyRequest) => string }
  }
}

/** RFC 6749 §5.1: token responses must not be cached. */
const TOKEN_HEADERS = { 'cache-control': 'no-store', pragma: 'no-cache' }

const oauthErrorResponses = {
  400: ref(OAuthErrorBody),
  401: ref(OAuthErrorBody),
  ...rateLimitedResponse,
} as const

export const oauthRoutes: FastifyPluginAsync = async (app) => {
  const signIn = app.config.signIn
  const publicUrl = signIn.publicUrl
  const identity = chooseIdentityProvider(signIn, {
    listenHost: app.config.host,
    apiHost: app.config.apiHost,
  })
  // Said once at start, so an operator sees how (and whether) people can sign in.
  if (identity.kind === 'none') app.log.warn(identity.message)
  else app.log.info(identity.message)

  const flow: SignInFlow = {
    server: new AuthorizationServer(app.repos),
    identity,
    /**
     * On a loopback address (a local server started with another --port) the request's host is used,
     * so discovery works without --public-url; any other host gets the configured public URL, which a
     * forged Host header cannot change.
     */
    originOf: (request) => apiOrigin(publicUrl, request),
    publicUrl,
    callbackUrl: `${publicUrl}/oauth/callback`,
    bruteForceLimit: {
      rateLimit: {
        max: signIn.rateLimitPerMinute,
        timeWindow: 60_000,
        keyGenerator: (request) => `sign-in:${request.ip}`,
      },
    },
  }

  // A child context whose request logs go through the redacting serializer.
  // Fastify types serializers as returning strings; pino accepts objects, which keep logs structured.
  const req = redactedRequestSerializer as unknown as (value: unknown) => string
  await app.register(
    async (scope) => {
      await scope.register(cookie)
      // OAuth clients post application/x-www-form-urlencoded (RFC 6749 §4.1.3), and so does the sign-in form.
      if (!scope.hasContentTypeParser('application/x-www-form-urlencoded')) {
        scope.addContentTypeParser(
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
      await scope.register(protocolRoutes, flow)
      await scope.register(signInPageRoutes, flow)
    },
    { logSerializers: { req } },
  )
}

const protocolRoutes: ApiRoutes<SignInFlow> = async (app, flow) => {
  const { server, identity, originOf, callbackUrl, bruteForceLimit } = flow

  app.get(
    '/.well-known/oauth-authorization-server',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['oauth'],
        summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
        response: { 200: ref(OAuthServerMetadata) },
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
        querystring: AuthorizeQuery,
      },
    },
    async (request, reply) => {
      const outcome = server.checkAuthorizeRequest(
        request.query,
        `${originOf(request)}${DASHBOARD_CALLBACK_PATH}`,
      )
      if (outcome.kind === 'show-error')
        return sendPage(reply, 400, renderMessagePage('Sign-in refused', outcome.message))
      if (outcome.kind === 'redirect-error') return reply.redirect(outcome.location, 302)
      if (identity.kind === 'none') {
        return sendPage(reply, 503, renderMessagePage('Sign-in is not configured', identity.message))
      }
      if (identity.kind === 'local') {
        const refused = refuseForwardedLocalSignIn(request, reply)
        if (refused) return refused
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

  app.post(
    '/oauth/token',
    {
      config: bruteForceLimit,
      attachValidation: true,
      schema: {
        tags: ['oauth'],
        summary: 'Exchange an authorization code (with its PKCE verifier) or a refresh token for tokens',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: ref(OAuthTokenRequest),
        response: { 200: ref(OAuthTokenResponse), ...oauthErrorResponses },
      },
    },
    async (request, reply) => {
      reply.headers(TOKEN_HEADERS)
      try {
        if (request.validationError) throw new OAuthError('invalid_request', request.validationError.message)
        return await server.token(request.body)
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
        body: ref(OAuthRevokeRequest),
        response: { 200: OAuthRevokeResponse, ...oauthErrorResponses },
      },
    },
    async (request, reply) => {
      reply.headers(TOKEN_HEADERS)
      // attachValidation: the body reached here unchecked when validationError is set.
      if (request.validationError || typeof request.body?.token !== 'string') {
        return reply.code(400).send(new OAuthError('invalid_request', 'token is required').toBody())
      }
      await server.revoke(request.body.token)
      return {}
    },
  )
}
