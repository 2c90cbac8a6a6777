/**
 * `GET/PUT/DELETE /projects/:projectId/analytics`: a project's PostHog settings (user tokens only).
 * The checks repeat the CLI's, since any client may call the API. Builds read the same settings
 * through `repos.analytics`.
 */

import { posthogOrigin } from '../../compiler/theme/head.js'
import {
  AnalyticsSettings,
  AnalyticsUpdate,
  errorResponses,
  noContent,
  projectIdParams,
  ref,
} from '../../schemas/api/index.js'
import { requireProjectAccess } from '../auth/actor.js'
import { badRequest, type Issue } from '../errors.js'
import type { ApiRoutes } from '../schemas.js'

/**
 * What is wrong with a PostHog key and host, as `{path, message}` issues (empty when fine). The host
 * must be an origin (https, or http on loopback): it goes into the sites' Content-Security-Policy.
 */
export function posthogIssues(key: string, host: string): Issue[] {
  const issues: Issue[] = []
  if (key.startsWith('phx_'))
    issues.push({
      path: 'key',
      message:
        'a personal API key (phx_…) can read and change the whole PostHog account and must never be published; use the project API key (phc_…)',
    })
  else if (!key.startsWith('phc_'))
    issues.push({ path: 'key', message: 'a PostHog project API key starts with "phc_"' })
  else if (key.length < 24)
    issues.push({ path: 'key', message: 'a PostHog project API key has at least 24 characters' })
  else if (!/^[A-Za-z0-9_-]+$/.test(key))
    issues.push({ path: 'key', message: 'a PostHog project API key has only letters, digits, "_" and "-"' })
  const origin = posthogOrigin(host)
  if ('problem' in origin) issues.push({ path: 'host', message: origin.problem })
  return issues
}

export const analyticsRoutes: ApiRoutes = async (app) => {
  const settingsOf = async (projectId: string) => ({
    posthog: (await app.repos.analytics.posthogOf(projectId)) ?? null,
  })

  app.get(
    '/projects/:projectId/analytics',
    {
      schema: {
        tags: ['analytics'],
        summary: "A project's analytics settings",
        params: projectIdParams,
        response: { 200: ref(AnalyticsSettings), ...errorResponses },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      return settingsOf(project.id)
    },
  )

  app.put(
    '/projects/:projectId/analytics',
    {
      schema: {
        tags: ['analytics'],
        summary: "Set a project's PostHog key and host",
        params: projectIdParams,
        body: ref(AnalyticsUpdate),
        response: { 200: ref(AnalyticsSettings), ...errorResponses },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      const { key, host } = request.body
      const issues = posthogIssues(key, host)
      const origin = posthogOrigin(host)
      if (issues.length > 0 || !('origin' in origin)) throw badRequest('Invalid PostHog settings', issues)
      // Stored as the origin rebuilt from its parsed parts, never the text as sent.
      await app.repos.analytics.setPosthog(project.id, { key, host: origin.origin })
      return settingsOf(project.id)
    },
  )

  app.delete(
    '/projects/:projectId/analytics',
    {
      schema: {
        tags: ['analytics'],
        summary: "Remove a project's analytics settings",
        params: projectIdParams,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      await app.repos.analytics.remove(project.id)
      return reply.code(204).send(null)
    },
  )
}
