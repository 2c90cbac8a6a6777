/**
 * The browser-facing steps of a CLI sign-in, between `/oauth/authorize` and the redirect back to the
 * CLI: the upstream identity provider's callback, or the local email form (only when no provider is
 * configured and the listen address, API host and public URL are all loopback, and never through a proxy). The form is tied to its browser by a cookie holding the
 * anti-forgery value, whose hash the pending sign-in keeps.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { CallbackQuery, SignInForm, SignInPageQuery } from '../../schemas/api/index.js'
import { DASHBOARD_CLIENT_ID } from '../auth/oauth/authorization-server.js'
import { forwardingHeaderOf } from '../auth/providers/index.js'
import { LOCAL_SIGN_IN_FIELD, renderMessagePage, renderSignInPage } from '../auth/providers/local.js'
import { type Identity, isEmailAddress, SignInFailed } from '../auth/providers/types.js'
import type { OAuthRequestRow } from '../db/repositories/sign-ins.js'
import type { ApiRoutes } from '../schemas.js'
import type { SignInFlow } from './oauth.js'

const SIGN_IN_COOKIE = 'docs_sign_in'
export const SIGN_IN_PATH = '/oauth/sign-in'

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

export function sendPage(
  reply: FastifyReply,
  status: number,
  html: string,
  formTarget?: string,
): FastifyReply {
  return reply.code(status).headers(pageHeaders(formTarget)).send(html)
}

/**
 * The local provider trusts whoever reaches it, so it answers only a browser on this machine: a request
 * that came through a reverse proxy (it carries a forwarding header) gets 403 and a page that says why.
 * `undefined` for a direct request.
 */
export function refuseForwardedLocalSignIn(
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | undefined {
  const header = forwardingHeaderOf(request.headers)
  if (header === undefined) return undefined
  request.log.warn({ header }, 'sign-in: local sign-in refused for a request through a proxy')
  return sendPage(
    reply,
    403,
    renderMessagePage(
      'Local sign-in refused',
      `This request came through a proxy (it carries ${header}). The local email form asks no password, so it only answers a browser on the server's own machine; configure an identity provider (--oidc-issuer or --github-client-id) to sign in through a proxy.`,
    ),
  )
}

export const signInPageRoutes: ApiRoutes<SignInFlow> = async (app, flow) => {
  const { server, identity, originOf, callbackUrl, publicUrl, bruteForceLimit } = flow

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
        querystring: CallbackQuery,
      },
    },
    async (request, reply) => {
      const { state } = request.query
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
  async function localPending(requestId: string | undefined): Promise<OAuthRequestRow | undefined> {
    if (identity.kind !== 'local' || requestId === undefined) return undefined
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
    reply.setCookie(SIGN_IN_COOKIE, csrfToken, {
      path: SIGN_IN_PATH,
      httpOnly: true,
      sameSite: 'strict',
      maxAge: server.pendingSignInTtl,
      secure: origin.startsWith('https:'),
    })
    return sendPage(
      reply,
      status,
      renderSignInPage({
        action: SIGN_IN_PATH,
        requestId: pending.id,
        csrfToken,
        serverHost: new URL(origin).host,
        client: pending.client_id === DASHBOARD_CLIENT_ID ? 'dashboard' : 'cli',
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
        querystring: SignInPageQuery,
      },
    },
    async (request, reply) => {
      if (identity.kind === 'local') {
        const refused = refuseForwardedLocalSignIn(request, reply)
        if (refused) return refused
      }
      const pending = await localPending(request.query.request)
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
        body: SignInForm,
      },
    },
    async (request, reply) => {
      if (identity.kind === 'local') {
        const refused = refuseForwardedLocalSignIn(request, reply)
        if (refused) return refused
      }
      const form = request.body
      const pending = await localPending(form[LOCAL_SIGN_IN_FIELD.request])
      if (!pending) return sendPage(reply, identity.kind === 'local' ? 400 : 404, expiredPage)
      if (!server.checkCsrfToken(pending, form[LOCAL_SIGN_IN_FIELD.csrf], request.cookies[SIGN_IN_COOKIE])) {
        return sendPage(
          reply,
          403,
          renderMessagePage(
            'Sign-in form expired',
            'The form was not submitted from this browser’s sign-in page.',
          ),
        )
      }
      const email = (form[LOCAL_SIGN_IN_FIELD.email] ?? '').trim()
      if (!isEmailAddress(email)) {
        return showSignInForm(request, reply, pending, 400, {
          email,
          error: 'Enter an email address like you@example.com.',
        })
      }
      reply.clearCookie(SIGN_IN_COOKIE, { path: SIGN_IN_PATH, httpOnly: true, sameSite: 'strict' })
      return finish(reply, pending, { email: email.toLowerCase(), name: null })
    },
  )
}
