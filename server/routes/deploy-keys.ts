/**
 * Deploy keys of a project: `dk_…` credentials for CI that may only deploy. Managed with a user token
 * only; the value is returned once, at creation, and revoking a key stops it on the next request.
 * requireProjectAccess decides who may: a deploy key of this project gets 403, of another one 404.
 */

import {
  DeployKeyCreate,
  DeployKeyCreated,
  DeployKeyList,
  DeployKeyParams,
  errorResponses,
  noContent,
  projectIdParams,
  ref,
} from '../../schemas/api/index.js'
import { requireProjectAccess } from '../auth/actor.js'
import { summarizeDeployKey } from '../db/repositories/deploy-keys.js'
import { notFound } from '../errors.js'
import type { ApiRoutes } from '../schemas.js'

export const deployKeyRoutes: ApiRoutes = async (app) => {
  app.get(
    '/projects/:projectId/deploy-keys',
    {
      schema: {
        tags: ['deploy-keys'],
        summary: 'List the active deploy keys of a project (never their values)',
        params: projectIdParams,
        response: { 200: ref(DeployKeyList), ...errorResponses },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      const rows = await app.repos.deployKeys.listActive(project.id)
      return { deployKeys: rows.map(summarizeDeployKey) }
    },
  )

  app.post(
    '/projects/:projectId/deploy-keys',
    {
      schema: {
        tags: ['deploy-keys'],
        summary: 'Create a deploy key; its value (dk_…) is in this response only',
        params: projectIdParams,
        body: ref(DeployKeyCreate),
        response: { 201: ref(DeployKeyCreated), ...errorResponses },
      },
    },
    async (request, reply) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      const created = await app.repos.deployKeys.create(project.id, request.body.name.trim())
      request.log.info({ projectId: project.id, deployKeyId: created.deployKey.id }, 'deploy key created')
      return reply.code(201).header('cache-control', 'no-store').send(created)
    },
  )

  app.delete(
    '/projects/:projectId/deploy-keys/:keyId',
    {
      schema: {
        tags: ['deploy-keys'],
        summary: 'Revoke a deploy key at once',
        params: DeployKeyParams,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      if (!(await app.repos.deployKeys.revoke(project.id, request.params.keyId))) {
        throw notFound(`No active deploy key "${request.params.keyId}" in this project`)
      }
      request.log.info({ projectId: project.id, deployKeyId: request.params.keyId }, 'deploy key revoked')
      return reply.code(204).send(null)
    },
  )
}
