/**
 * `GET /projects/slug/:slug/deployments/:id/diagnostics`: a deployment's diagnostics page by page,
 * errors first. A deployment record carries only its first few; a build may keep thousands.
 */
import {
  DiagnosticList,
  DiagnosticListQuery,
  deploymentParams,
  errorResponses,
  ref,
} from '../../schemas/api/index.js'
import { requireProjectAccess } from '../auth/actor.js'
import { notFound } from '../errors.js'
import type { ApiRoutes } from '../schemas.js'

export const deploymentDiagnosticRoutes: ApiRoutes = async (app) => {
  const { repos } = app
  app.get(
    '/projects/slug/:slug/deployments/:id/diagnostics',
    {
      schema: {
        tags: ['deployments'],
        summary: "A page of a deployment's diagnostics, errors first",
        params: deploymentParams,
        querystring: DiagnosticListQuery,
        response: { 200: ref(DiagnosticList), ...errorResponses },
      },
    },
    async (request) => {
      const { slug, id } = request.params
      const project = await requireProjectAccess(request, slug, { allowDeployKey: true, by: 'slug' })
      const deployment = await repos.deployments.findInProject(project.id, id)
      if (!deployment) throw notFound(`No deployment "${id}" in project "${project.slug}"`)
      const offset = Number(request.query.cursor ?? 0)
      const page = await repos.deployments.diagnostics(deployment.id, offset, Number(request.query.limit))
      return {
        diagnostics: page.diagnostics,
        total: Number(deployment.diagnostic_count),
        nextCursor: page.next === null ? null : String(page.next),
      }
    },
  )
}
