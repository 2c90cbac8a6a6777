/**
 * `GET /projects/slug/:slug/deployments/:id/report`: a preview deployment's change report against the
 * live deployment (made on the first ask, then kept), and `…/report/images/:sha256`, its screenshots,
 * to whoever may see the project (a deploy key of the project too, for CI).
 */
import {
  ChangeReport,
  conflictResponse,
  deploymentParams,
  errorResponses,
  ref,
} from '../../schemas/api/index.js'
import { requireProjectAccess } from '../auth/actor.js'
import { conflict, notFound } from '../errors.js'
import type { ApiRoutes } from '../schemas.js'

const imageParams = {
  type: 'object',
  required: ['slug', 'id', 'sha256'],
  properties: {
    ...deploymentParams.properties,
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
} as const

export const changeReportRoutes: ApiRoutes = async (app) => {
  const { repos } = app

  const deploymentOf = async (
    request: Parameters<typeof requireProjectAccess>[0],
    slug: string,
    id: string,
  ) => {
    const project = await requireProjectAccess(request, slug, { allowDeployKey: true, by: 'slug' })
    const deployment = await repos.deployments.findInProject(project.id, id)
    if (!deployment) throw notFound(`No deployment "${id}" in project "${project.slug}"`)
    return { project, deployment }
  }

  app.get(
    '/projects/slug/:slug/deployments/:id/report',
    {
      schema: {
        tags: ['deployments'],
        summary:
          "A preview's change report against the live deployment: pages, links, warnings, redirects, navigation, screenshots",
        params: deploymentParams,
        response: { 200: ref(ChangeReport), ...errorResponses, ...conflictResponse },
      },
    },
    async (request) => {
      const { project, deployment } = await deploymentOf(request, request.params.slug, request.params.id)
      if (deployment.status !== 'ready')
        throw conflict(`${deployment.id} is ${deployment.status}: a report is made once its build is ready`)
      const row = await app.changeReports.reportOf(project, deployment)
      return app.changeReports.present(project, deployment, row)
    },
  )

  app.get(
    '/projects/slug/:slug/deployments/:id/report/images/:sha256',
    {
      schema: {
        tags: ['deployments'],
        summary: 'A screenshot or difference image of a change report (image/png)',
        params: imageParams,
        response: {
          200: {
            description: 'The PNG image',
            content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { deployment } = await deploymentOf(request, request.params.slug, request.params.id)
      const { sha256 } = request.params
      if (!(await repos.changeReports.holdsImage(deployment.id, sha256)))
        throw notFound(`The report of ${deployment.id} has no image ${sha256}`)
      const bytes = await app.blobs.get(sha256)
      if (!bytes) throw notFound(`The image ${sha256} is no longer stored`)
      return (
        reply
          .type('image/png')
          .header('cache-control', 'private, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          // A Buffer is sent as it is; the 200 schema (a binary string) only describes it in /openapi.json.
          .send(bytes as unknown as string)
      )
    },
  )
}
