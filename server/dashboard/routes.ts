/**
 * The dashboard on the API host: its sign-in (the dashboard is a second OAuth client of the server's
 * own authorization server, so every identity provider of `docsctl login` works unchanged), sign-out,
 * the page shells and their two static files. The pages' data comes from the REST routes, called by the
 * browser with the session cookie and the CSRF header (see session.ts).
 *
 *   GET /dashboard/sign-in ─▶ /oauth/authorize?client_id=docs-dashboard (PKCE) ─▶ provider or local form
 *   GET /dashboard/callback?code&state ─▶ new session, cookie ─▶ /dashboard/
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { fromPackageRoot } from '../../compiler/assets.js'
import { createPkcePair, createState } from '../../lib/pkce.js'
import { errorResponses, noContent, pathId } from '../../schemas/api/index.js'
import { requireProjectAccess, requireUser } from '../auth/actor.js'
import {
  clearSessionCookie,
  csrfTokenFor,
  DASHBOARD_CALLBACK_PATH,
  readCookie,
  sessionLifetimes,
  sessionTokenOf,
  setSessionCookie,
} from '../auth/dashboard-session.js'
import { apiOrigin } from '../auth/oauth/api-origin.js'
import { AuthorizationServer, DASHBOARD_CLIENT_ID } from '../auth/oauth/authorization-server.js'
import { OAuthError } from '../auth/oauth/errors.js'
import { chooseIdentityProvider } from '../auth/providers/index.js'
import { ApiError, notFound } from '../errors.js'
import type { ApiRoutes } from '../schemas.js'
import { constantTimeEqual } from '../tokens.js'
import { dashboardHeaders, renderMessagePage, renderShell, renderSignInPage } from './pages.js'

const FLOW_COOKIE = 'docs_dashboard_sign_in'
const ASSETS = {
  'dashboard.js': 'text/javascript; charset=utf-8',
  'dashboard.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
}

const html = { produces: ['text/html'] } as const
const projectPage = {
  type: 'object',
  additionalProperties: false,
  required: ['projectId'],
  properties: { projectId: pathId },
} as const
const deploymentPage = {
  type: 'object',
  additionalProperties: false,
  required: ['projectId', 'deploymentId'],
  properties: { projectId: pathId, deploymentId: pathId },
} as const

export const dashboardRoutes: ApiRoutes = async (app) => {
  const publicUrl = app.config.signIn.publicUrl
  const identity = chooseIdentityProvider(app.config.signIn, {
    listenHost: app.config.host,
    apiHost: app.config.apiHost,
  })
  const providerLabel =
    identity.kind === 'upstream' ? identity.provider.label : identity.kind === 'local' ? 'email' : 'none'
  const authorization = new AuthorizationServer(app.repos)
  const assets = new Map<string, { body: Buffer; etag: string }>()

  const isSecure = (request: FastifyRequest) => apiOrigin(publicUrl, request).startsWith('https:')
  const page = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).headers(dashboardHeaders).send(body)

  /** The signed-in user of a page request, from the session cookie only (a page is never bearer-authenticated). */
  async function sessionUser(request: FastifyRequest) {
    const token = sessionTokenOf(request)
    if (!token || request.headers.authorization !== undefined || request.actor?.kind !== 'user')
      return undefined
    const user = await app.repos.users.findById(request.actor.userId)
    return user ? { user, csrfToken: csrfTokenFor(token) } : undefined
  }

  /** A page of the signed-in user; another user's project or deployment is a 404 page, as in the API. */
  async function showPage(
    request: FastifyRequest,
    reply: FastifyReply,
    name: string,
    scope: { projectId?: string; deploymentId?: string } = {},
  ) {
    const signedIn = await sessionUser(request)
    if (!signedIn) {
      if (identity.kind === 'none')
        return page(reply, 503, renderMessagePage('Sign-in is not configured', identity.message))
      return page(reply, 200, renderSignInPage({ providerLabel }))
    }
    try {
      if (scope.projectId) {
        const project = await requireProjectAccess(request, scope.projectId, {
          allowDeployKey: false,
          by: 'id',
        })
        if (
          scope.deploymentId &&
          !(await app.repos.deployments.findInProject(project.id, scope.deploymentId))
        )
          throw notFound('No such deployment')
      }
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 404)
        return page(reply, 404, renderMessagePage('Not found', 'There is no such page among your projects.'))
      throw error
    }
    return page(
      reply,
      200,
      renderShell({ page: name, csrfToken: signedIn.csrfToken, email: signedIn.user.email }),
    )
  }

  const tags = ['dashboard']

  app.get(
    '/',
    { schema: { tags, summary: 'The API host’s home: the dashboard', ...html } },
    (_request, reply) => reply.redirect('/dashboard/', 302),
  )
  app.get('/dashboard', { schema: { tags, summary: 'The dashboard', ...html } }, (_request, reply) =>
    reply.redirect('/dashboard/', 302),
  )
  app.get(
    '/dashboard/',
    { schema: { tags, summary: 'Dashboard: your projects (or the sign-in page)', ...html } },
    (request, reply) => showPage(request, reply, 'projects'),
  )
  app.get(
    '/dashboard/projects/:projectId',
    { schema: { tags, summary: 'Dashboard: a project’s overview', params: projectPage, ...html } },
    (request, reply) => showPage(request, reply, 'project', request.params),
  )
  app.get(
    '/dashboard/projects/:projectId/settings',
    {
      schema: {
        tags,
        summary: 'Dashboard: a project’s settings and deploy keys',
        params: projectPage,
        ...html,
      },
    },
    (request, reply) => showPage(request, reply, 'settings', request.params),
  )
  app.get(
    '/dashboard/projects/:projectId/domains',
    { schema: { tags, summary: 'Dashboard: a project’s custom domains', params: projectPage, ...html } },
    (request, reply) => showPage(request, reply, 'domains', request.params),
  )
  app.get(
    '/dashboard/projects/:projectId/insights',
    {
      schema: {
        tags,
        summary: 'Dashboard: a project’s reader insights (views, searches, feedback, 404s)',
        params: projectPage,
        ...html,
      },
    },
    (request, reply) => showPage(request, reply, 'insights', request.params),
  )
  app.get(
    '/dashboard/projects/:projectId/git',
    {
      schema: {
        tags,
        summary: 'Dashboard: a project’s Git connection and recent deliveries',
        params: projectPage,
        ...html,
      },
    },
    (request, reply) => showPage(request, reply, 'git', request.params),
  )
  app.get(
    '/dashboard/projects/:projectId/deployments/:deploymentId',
    { schema: { tags, summary: 'Dashboard: one deployment', params: deploymentPage, ...html } },
    (request, reply) => showPage(request, reply, 'deployment', request.params),
  )

  app.get(
    '/dashboard/assets/:file',
    {
      config: { rateLimit: false },
      schema: {
        tags,
        summary: 'The dashboard’s script, stylesheet and icon',
        params: {
          type: 'object',
          additionalProperties: false,
          required: ['file'],
          properties: { file: { type: 'string', enum: Object.keys(ASSETS) } },
        },
      },
    },
    async (request, reply) => {
      const file = request.params.file as keyof typeof ASSETS
      let asset = assets.get(file)
      if (!asset) {
        const body = await readFile(fromPackageRoot('dist', 'server', 'dashboard', 'assets', file))
        asset = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` }
        assets.set(file, asset)
      }
      // Revalidated on every page (a new build must show at once), but a 304 costs no bytes.
      reply.headers({
        'content-type': ASSETS[file],
        'cache-control': 'no-cache',
        etag: asset.etag,
        'x-content-type-options': 'nosniff',
      })
      if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send()
      return reply.send(asset.body)
    },
  )

  app.get(
    '/dashboard/sign-in',
    { schema: { tags, summary: 'Start signing in to the dashboard with the server’s identity provider' } },
    async (request, reply) => {
      const origin = apiOrigin(publicUrl, request)
      const pkce = createPkcePair()
      const state = createState()
      reply.header(
        'set-cookie',
        `${FLOW_COOKIE}=${state}.${pkce.verifier}; Path=/dashboard; Max-Age=600; HttpOnly; SameSite=Lax${isSecure(request) ? '; Secure' : ''}`,
      )
      const authorize = new URL(`${origin}/oauth/authorize`)
      authorize.search = new URLSearchParams({
        client_id: DASHBOARD_CLIENT_ID,
        redirect_uri: `${origin}${DASHBOARD_CALLBACK_PATH}`,
        response_type: 'code',
        state,
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      }).toString()
      return reply.redirect(authorize.toString(), 302)
    },
  )

  app.get(
    DASHBOARD_CALLBACK_PATH,
    {
      schema: {
        tags,
        summary: 'Where a dashboard sign-in returns: starts the session (a new cookie every time)',
        querystring: {
          type: 'object',
          properties: {
            code: { type: 'string', maxLength: 200 },
            state: { type: 'string', maxLength: 512 },
            error: { type: 'string', maxLength: 200 },
            error_description: { type: 'string', maxLength: 2000 },
          },
        },
        ...html,
      },
    },
    async (request, reply) => {
      const secure = isSecure(request)
      const { code, state, error, error_description: description } = request.query
      const [expectedState, verifier] = (readCookie(request.headers.cookie, FLOW_COOKIE) ?? '').split('.')
      reply.header('set-cookie', `${FLOW_COOKIE}=; Path=/dashboard; Max-Age=0; HttpOnly; SameSite=Lax`)
      if (error)
        return page(
          reply,
          400,
          renderSignInPage({ providerLabel, message: `Sign-in declined: ${description ?? error}` }),
        )
      if (!code || !state || !expectedState || !verifier || !constantTimeEqual(state, expectedState)) {
        return page(
          reply,
          400,
          renderSignInPage({
            providerLabel,
            message: 'This sign-in was not started in this browser; try again.',
          }),
        )
      }
      let user: Awaited<ReturnType<typeof authorization.redeemDashboardCode>>
      try {
        user = await authorization.redeemDashboardCode(
          code,
          verifier,
          `${apiOrigin(publicUrl, request)}${DASHBOARD_CALLBACK_PATH}`,
        )
      } catch (failure) {
        if (!(failure instanceof OAuthError)) throw failure
        return page(reply, 400, renderSignInPage({ providerLabel, message: failure.message }))
      }
      // Rotation: whatever session this browser had ends, and the new one gets a new token.
      const previous = sessionTokenOf(request)
      if (previous) await app.repos.dashboardSessions.end(previous)
      const session = await app.repos.dashboardSessions.create(user.id, sessionLifetimes)
      setSessionCookie(reply, session.token, secure)
      request.log.info({ userId: user.id }, 'dashboard: signed in')
      return reply.redirect('/dashboard/', 303)
    },
  )

  app.post(
    '/dashboard/sign-out',
    {
      schema: {
        tags,
        summary: 'End the dashboard session (needs the X-CSRF-Token header)',
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      requireUser(request)
      const token = sessionTokenOf(request)
      if (token) await app.repos.dashboardSessions.end(token)
      clearSessionCookie(reply, isSecure(request))
      return reply.code(204).send(null)
    },
  )
}
