/**
 * `GET /projects/slug/:slug/deployments/:id/files`: the source files a deployment was made from, each
 * marked added, changed or unchanged against the deployment created just before it, and the paths it
 * dropped. What the dashboard's deployment page lists; readable by a deploy key of the project too.
 */
import { DeploymentFileList, deploymentParams, errorResponses, ref } from '../../schemas/api/index.js'
import { requireProjectAccess } from '../auth/actor.js'
import { notFound } from '../errors.js'
import type { ApiRoutes } from '../schemas.js'

export const deploymentFileRoutes: ApiRoutes = async (app) => {
  const { repos } = app
  app.get(
    '/projects/slug/:slug/deployments/:id/files',
    {
      schema: {
        tags: ['deployments'],
        summary: "A deployment's source files and what changed since the previous deployment",
        params: deploymentParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            summary: {
              type: 'string',
              enum: ['true', 'false'],
              default: 'false',
              description: 'true: only the counts (files and removed are empty), for lists of deployments',
            },
          },
        },
        response: { 200: ref(DeploymentFileList), ...errorResponses },
      },
    },
    async (request) => {
      const { slug, id } = request.params
      const project = await requireProjectAccess(request, slug, { allowDeployKey: true, by: 'slug' })
      const deployment = await repos.deployments.findInProject(project.id, id)
      if (!deployment) throw notFound(`No deployment "${id}" in project "${project.slug}"`)
      const [previous] = (await repos.deployments.list(project.id, 1, [deployment.created_at, deployment.id]))
        .deployments
      const before = new Map(
        (previous ? await repos.deployments.files(previous.id) : []).map((file) => [file.path, file.sha256]),
      )
      const files = (await repos.deployments.files(deployment.id)).map((file) => {
        const earlier = before.get(file.path)
        before.delete(file.path)
        const change = earlier === undefined ? 'added' : earlier === file.sha256 ? 'unchanged' : 'changed'
        return { path: file.path, sha256: file.sha256, size: Number(file.size), change } as const
      })
      const removed = [...before.keys()]
      const changedCount = files.filter((file) => file.change !== 'unchanged').length + removed.length
      const summary = request.query.summary === 'true'
      return {
        previousDeploymentId: previous?.id ?? null,
        changedCount,
        files: summary ? [] : files,
        removed: summary ? [] : removed,
      }
    },
  )
}
