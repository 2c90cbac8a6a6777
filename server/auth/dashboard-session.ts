/**
 * The dashboard's session: a cookie on the API host only, turned into the same `request.actor` a bearer
 * token gives, so the dashboard reaches data through the REST routes and their authorisation alone.
 *
 * - The cookie holds a random `dss_…` token (the database keeps its hash); no Domain attribute, so it
 *   never reaches a site host. HttpOnly, SameSite=Lax, Secure when the API is served over https.
 * - A request that changes something must also send `X-CSRF-Token`, a value derived from the session
 *   token that a page on another origin cannot read. Without it the cookie authenticates nothing.
 */
import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { SessionLifetimes } from '../db/repositories/dashboard-sessions.js'
import { forbidden } from '../errors.js'
import { constantTimeEqual } from '../tokens.js'
import type { Actor } from './actor.js'

export const DASHBOARD_PATH = '/dashboard'
export const DASHBOARD_CALLBACK_PATH = `${DASHBOARD_PATH}/callback`
export const SESSION_COOKIE = 'docs_session'
export const CSRF_HEADER = 'x-csrf-token'

/** Idle: two hours without a request; absolute: seven days after sign-in. */
export const sessionLifetimes: SessionLifetimes = { idleSeconds: 2 * 3600, absoluteSeconds: 7 * 24 * 3600 }

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const SESSION_SHAPE = /^dss_[A-Za-z0-9_-]{43}$/

/** One cookie's value from a Cookie header (the API's other routes do not parse cookies). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const at = part.indexOf('=')
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim()
  }
  return undefined
}

/** The anti-forgery value of a session: derived, so it needs no storage and ends with the session. */
export const csrfTokenFor = (sessionToken: string): string =>
  createHash('sha256').update(`docs-dashboard-csrf:${sessionToken}`).digest('base64url')

export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const token = readCookie(request.headers.cookie, SESSION_COOKIE)
  return token && SESSION_SHAPE.test(token) ? token : undefined
}

/**
 * The actor of a request that carries a session cookie and no Authorization header; or why the
 * cookie does not count. Called by the actor plugin.
 */
export async function resolveSession(
  request: FastifyRequest,
): Promise<{ actor: Actor } | { failure: string } | undefined> {
  const token = sessionTokenOf(request)
  if (!token) return undefined
  const session = await request.server.repos.dashboardSessions.use(token, sessionLifetimes)
  if (!session) return { failure: 'Your dashboard session has ended: sign in again' }
  if (!SAFE_METHODS.has(request.method)) {
    const sent = request.headers[CSRF_HEADER]
    if (typeof sent !== 'string' || !constantTimeEqual(sent, csrfTokenFor(token))) {
      const failure = 'Missing or wrong X-CSRF-Token header: reload the dashboard and try again'
      // From another origin (a forged form or script): refused before the body is even read.
      const site = request.headers['sec-fetch-site']
      if (site !== undefined && site !== 'same-origin' && site !== 'none') throw forbidden(failure)
      return { failure }
    }
  }
  return { actor: { kind: 'user', userId: session.user_id } }
}

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.header(
    'set-cookie',
    `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${sessionLifetimes.absoluteSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  )
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.header(
    'set-cookie',
    `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  )
}
