/**
 * `GET/PUT/DELETE /projects/:projectId/analytics`: a project's PostHog settings (user tokens only).
 * The checks repeat the CLI's, since any client may call the API. Builds read the same settings
 * through `repos.analytics`.
 */
import type { FastifyPluginAsync } from 'fastify'
import type { Kysely } from 'kysely'
import { requireProjectAccess } from '../auth/actor.js'
import type { Database } from '../db/schema.js'
import { badRequest, type Issue } from '../errors.js'
import '../db/migrations/003_analytics.js'
import { errorResponses, projectIdParams } from '../schemas.js'

export const defaultPosthogHost = 'https://us.i.posthog.com'

interface AnalyticsBody {
  provider: 'posthog'
  key: string
  host?: string
}

const settingsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['posthog'],
  properties: {
    posthog: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['key', 'host'],
      properties: {
        key: { type: 'string', description: 'Public project API key (phc_…)' },
        host: { type: 'string', description: 'Ingestion host, an https:// URL' },
      },
    },
  },
} as const

// Declared apart from the routes: `tags` and `summary` are OpenAPI fields that FastifySchema does not list.
const getSchema = {
  tags: ['analytics'],
  summary: "A project's analytics settings",
  params: projectIdParams,
  response: { 200: settingsSchema, ...errorResponses },
}

const putSchema = {
  tags: ['analytics'],
  summary: "Set a project's PostHog key and host",
  params: projectIdParams,
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['provider', 'key'],
    properties: {
      provider: { type: 'string', enum: ['posthog'] },
      key: { type: 'string', maxLength: 200 },
      host: { type: 'string', maxLength: 500, description: `Default ${defaultPosthogHost}` },
    },
  },
  response: { 200: settingsSchema, ...errorResponses },
}

const deleteSchema = {
  tags: ['analytics'],
  summary: "Remove a project's analytics settings",
  params: projectIdParams,
  response: { 204: { type: 'null' }, ...errorResponses },
}

/** What is wrong with a PostHog key and host, as `{path, message}` issues (empty when fine). */
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
  let url: URL | undefined
  try {
    url = new URL(host)
  } catch {
    issues.push({ path: 'host', message: 'not a URL' })
  }
  if (url && url.protocol !== 'https:') issues.push({ path: 'host', message: 'must be an https:// URL' })
  else if (url && (url.username || url.password || url.search || url.hash))
    issues.push({ path: 'host', message: 'must have no credentials, query or fragment' })
  return issues
}

export function analyticsLoader(db: Kysely<Database>) {
  return async (projectId: string): Promise<{ posthog?: { key: string; host: string } } | undefined> => {
    const row = await db
      .selectFrom('project_analytics')
      .select(['public_key', 'host'])
      .where('project_id', '=', projectId)
      .where('provider', '=', 'posthog')
      .executeTakeFirst()
    return row ? { posthog: { key: row.public_key, host: row.host } } : undefined
  }
}

export const analyticsRoutes: FastifyPluginAsync = async (app) => {
  const load = analyticsLoader(app.db)
  const settingsOf = async (projectId: string) => ({ posthog: (await load(projectId))?.posthog ?? null })

  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId/analytics',
    { schema: getSchema },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      return settingsOf(project.id)
    },
  )

  app.put<{ Params: { projectId: string }; Body: AnalyticsBody }>(
    '/projects/:projectId/analytics',
    { schema: putSchema },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      const { key } = request.body
      const host = (request.body.host ?? defaultPosthogHost).replace(/\/+$/, '')
      const issues = posthogIssues(key, host)
      if (issues.length > 0) throw badRequest('Invalid PostHog settings', issues)
      const now = new Date().toISOString()
      await app.db
        .insertInto('project_analytics')
        .values({
          project_id: project.id,
          provider: 'posthog',
          public_key: key,
          host,
          created_at: now,
          updated_at: now,
        })
        .onConflict((conflict) =>
          conflict
            .columns(['project_id', 'provider'])
            .doUpdateSet({ public_key: key, host, updated_at: now }),
        )
        .execute()
      return settingsOf(project.id)
    },
  )

  app.delete<{ Params: { projectId: string } }>(
    '/projects/:projectId/analytics',
    { schema: deleteSchema },
    async (request, reply) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      await app.db.deleteFrom('project_analytics').where('project_id', '=', project.id).execute()
      return reply.code(204).send()
    },
  )
}
