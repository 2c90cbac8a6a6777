/** Projects of the signed-in user: list, create, read by id or slug, update. */
import { slugProblem } from '../../compiler/config/slug.js'
import {
  conflictResponse,
  errorResponses,
  noContent,
  Project,
  ProjectCreate,
  ProjectList,
  ProjectUpdate,
  projectIdParams,
  ref,
  slugParams,
} from '../../schemas/api/index.js'
import { requireProjectAccess, requireUser } from '../auth/actor.js'
import { ApiError, badRequest, conflict, type Issue } from '../errors.js'
import { presentProject } from '../presenters.js'
import type { ApiRoutes } from '../schemas.js'

export const projectRoutes: ApiRoutes = async (app) => {
  app.get(
    '/projects/',
    {
      schema: {
        tags: ['projects'],
        summary: "List the caller's projects",
        response: { 200: ref(ProjectList), ...errorResponses },
      },
    },
    async (request) => {
      const userId = requireUser(request)
      const rows = await app.repos.projects.listByOwner(userId)
      return { projects: rows.map((row) => presentProject(app.config, row)) }
    },
  )

  app.post(
    '/projects/',
    {
      schema: {
        tags: ['projects'],
        summary: 'Create a project',
        body: ref(ProjectCreate),
        response: { 201: ref(Project), ...conflictResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const userId = requireUser(request)
      const { slug, description } = request.body
      const name = request.body.name.trim()
      const issues: Issue[] = []
      const problem = slugProblem(slug)
      if (problem) issues.push({ path: 'body/slug', message: problem })
      if (name === '') issues.push({ path: 'body/name', message: 'must not be blank' })
      if (issues.length) throw badRequest('Invalid project', issues)
      const row = await app.repos.projects.create({
        ownerId: userId,
        slug,
        name,
        description: description ?? null,
      })
      if (!row)
        throw conflict(`The slug "${slug}" is taken; choose another`, [
          { path: 'body/slug', message: 'taken' },
        ])
      return reply.code(201).send(presentProject(app.config, row))
    },
  )

  app.get(
    '/projects/slug/:slug',
    {
      schema: {
        tags: ['projects'],
        summary: 'Read a project by slug',
        params: slugParams,
        response: { 200: ref(Project), ...errorResponses },
      },
    },
    async (request) => {
      const { slug } = request.params
      const row = await requireProjectAccess(request, slug, { allowDeployKey: false, by: 'slug' }).catch(
        async (error: unknown) => {
          // Creating it would answer 409 anyway: say so now, so `docsctl push` need not ask first.
          if (
            error instanceof ApiError &&
            error.statusCode === 404 &&
            (await app.repos.projects.findBySlug(slug))
          )
            throw new ApiError(404, `The slug "${slug}" belongs to another account's project`, [
              { path: 'params/slug', message: 'taken' },
            ])
          throw error
        },
      )
      return presentProject(app.config, row)
    },
  )

  app.get(
    '/projects/:projectId',
    {
      schema: {
        tags: ['projects'],
        summary: 'Read a project by id',
        params: projectIdParams,
        response: { 200: ref(Project), ...errorResponses },
      },
    },
    async (request) => {
      const row = await requireProjectAccess(request, request.params.projectId, {
        allowDeployKey: false,
        by: 'id',
      })
      return presentProject(app.config, row)
    },
  )

  app.patch(
    '/projects/:projectId',
    {
      schema: {
        tags: ['projects'],
        summary: "Update a project's name, description or deployment name",
        params: projectIdParams,
        body: ref(ProjectUpdate),
        response: { 200: ref(Project), ...errorResponses },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, {
        allowDeployKey: false,
        by: 'id',
      })
      const { name, description, deploymentName } = request.body
      if (request.body.slug !== undefined) {
        throw badRequest('The slug cannot be changed; create a new project instead', [
          { path: 'body/slug', message: 'not updatable' },
        ])
      }
      if (name !== undefined && name.trim() === '') {
        throw badRequest('Invalid project', [{ path: 'body/name', message: 'must not be blank' }])
      }
      const row = await app.repos.projects.update(project.id, {
        ...(name !== undefined ? { name: name.trim() } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(deploymentName !== undefined ? { deploymentName } : {}),
      })
      return presentProject(app.config, row ?? project)
    },
  )

  app.delete(
    '/projects/:projectId',
    {
      schema: {
        tags: ['projects'],
        summary: 'Delete a project with its deployments, deploy keys and domains; its site stops at once',
        params: projectIdParams,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const project = await requireProjectAccess(request, request.params.projectId, {
        allowDeployKey: false,
        by: 'id',
      })
      // Its site's addresses go with it: read first, for the CDN purge by URL.
      const addresses = await app.siteChanged.addressesOf(project.id)
      await app.repos.projects.delete(project.id)
      await app.siteChanged.project(project.id, 'project-deleted', addresses)
      request.log.info({ projectId: project.id, slug: project.slug }, 'project deleted')
      return reply.code(204).send(null)
    },
  )
}
