/**
 * Who is calling: resolves `Authorization: Bearer <token>` into `request.actor` once per API request,
 * and the route helpers that turn an actor into a decision. Routes never read tokens themselves.
 *
 *   request.actor = {kind:'user', userId} | {kind:'deployKey', projectId, keyId} | null
 *
 * - `requireUser(request)` → the user id; 401 without a valid token, 403 for a deploy key.
 * - `requireProjectAccess(request, projectIdOrSlug, {allowDeployKey, by?})` → the project row; another
 *   user's (or another key's) project is always 404, a deploy key on a non-deploy route is 403.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { ProjectRow } from '../db/repositories/projects.js'
import { forbidden, notFound, unauthorized } from '../errors.js'
import { bearerKind } from '../tokens.js'
import { resolveSession } from './dashboard-session.js'

/** What a deploy key may do, said the same way by every route that refuses one. */
const deployKeyLimit =
  "Deploy keys may only create, upload, finalize and read their project's deployments; use a user token"

export type Actor = { kind: 'user'; userId: string } | { kind: 'deployKey'; projectId: string; keyId: string }

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null
    /** Why a presented token was refused, for the 401 message of a protected route. */
    authFailure: string | undefined
  }
}

/** Find the actor for a bearer token, or say why there is none. */
export async function resolveBearer(
  request: FastifyRequest,
  token: string,
): Promise<{ actor: Actor } | { failure: string }> {
  const kind = bearerKind(token)
  if (!kind) return { failure: 'Malformed token: expected a dsa_… access token or a dk_… deploy key' }
  const { repos } = request.server
  if (kind === 'accessToken') {
    const row = await repos.accessTokens.findByToken(token)
    if (!row) return { failure: 'Unknown or revoked token: sign in again' }
    if (Date.parse(row.expires_at) <= Date.now())
      return { failure: 'Expired token: refresh it or sign in again' }
    return { actor: { kind: 'user', userId: row.user_id } }
  }
  const key = await repos.deployKeys.findActiveByToken(token)
  if (!key) return { failure: 'Unknown or revoked deploy key' }
  await repos.deployKeys.touch(key.id)
  return { actor: { kind: 'deployKey', projectId: key.project_id, keyId: key.id } }
}

const actorPlugin: FastifyPluginAsync = async (app) => {
  app.decorateRequest('actor', null)
  app.decorateRequest('authFailure', undefined)
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization
    if (header === undefined) {
      // The dashboard's session cookie stands in for a user token (server/dashboard/session.ts).
      const session = await resolveSession(request)
      if (session && 'actor' in session) request.actor = session.actor
      else if (session) request.authFailure = session.failure
      return
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
    if (!match?.[1]) {
      request.authFailure = 'Malformed Authorization header: expected "Bearer <token>"'
      return
    }
    const result = await resolveBearer(request, match[1])
    if ('actor' in result) request.actor = result.actor
    else request.authFailure = result.failure
  })
}

export const actor = fp(actorPlugin, { name: 'actor', dependencies: ['database'] })

/** The signed-in user's id; deploy keys may not use this route. */
export function requireUser(request: FastifyRequest): string {
  const current = request.actor
  if (!current) throw unauthorized(request.authFailure)
  if (current.kind !== 'user') throw forbidden(deployKeyLimit)
  return current.userId
}

/** The caller must be signed in at all (user or deploy key). */
export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized(request.authFailure)
  return request.actor
}

/**
 * The project named by id (`prj_…`) or slug, if the caller may reach it. Someone else's project is
 * 404 exactly like one that does not exist, so ids and slugs reveal nothing.
 */
export async function requireProjectAccess(
  request: FastifyRequest,
  projectIdOrSlug: string,
  options: { allowDeployKey: boolean; by?: 'id' | 'slug' },
): Promise<ProjectRow> {
  const current = requireActor(request)
  const { projects } = request.server.repos
  const byId = options.by ? options.by === 'id' : projectIdOrSlug.startsWith('prj_')
  const project = byId ? await projects.findById(projectIdOrSlug) : await projects.findBySlug(projectIdOrSlug)
  const notYours = notFound(`No project "${projectIdOrSlug}" among yours`)
  if (!project) throw notYours
  if (current.kind === 'user') {
    if (project.owner_id !== current.userId) throw notYours
    return project
  }
  if (project.id !== current.projectId) throw notYours
  if (!options.allowDeployKey) {
    throw forbidden(deployKeyLimit)
  }
  return project
}
