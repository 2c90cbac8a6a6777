/**
 * `GET /projects/:projectId/insights` (JSON), `GET …/insights.csv` and `PUT …/insights/settings`:
 * a project's reader insights over a range of UTC days, and whether its sites keep reader events.
 * The work is in server/insights; the dashboard and `docsctl insights` read these routes.
 */
import {
  errorResponses,
  InsightsReport,
  InsightsSettings,
  insightsQuery,
  projectIdParams,
  ref,
} from '../../schemas/api/index.js'
import { requireProjectAccess } from '../auth/actor.js'
import { badRequest } from '../errors.js'
import { reportCsv } from '../insights/csv.js'
import type { ApiRoutes } from '../schemas.js'

/** Days a report may span at most. */
const maxDays = 366

export const insightsRoutes: ApiRoutes = async (app) => {
  /** The range asked for, the last 30 days by default; a bad one is a 400 naming the parameter. */
  const rangeOf = (query: { from?: string; to?: string }): { from: string; to: string } => {
    const fallback = app.insights.lastDays(30)
    const to = query.to ?? fallback.to
    const from = query.from ?? (query.to ? to : fallback.from)
    for (const [name, value] of [
      ['from', from],
      ['to', to],
    ] as const) {
      const ms = Date.parse(`${value}T00:00:00Z`)
      if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
        throw badRequest(`Invalid ${name}`, [
          { path: `querystring/${name}`, message: 'must be a day, YYYY-MM-DD' },
        ])
    }
    const span = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1
    if (span < 1)
      throw badRequest('Invalid range', [{ path: 'querystring/from', message: 'must not be after to' }])
    if (span > maxDays)
      throw badRequest('Invalid range', [
        { path: 'querystring/from', message: `must be at most ${maxDays} days before to` },
      ])
    return { from, to }
  }

  app.get(
    '/projects/:projectId/insights',
    {
      schema: {
        tags: ['insights'],
        summary: "A project's reader insights over a range of days",
        params: projectIdParams,
        querystring: insightsQuery,
        response: { 200: ref(InsightsReport), ...errorResponses },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      return app.insights.report(project, rangeOf(request.query), Number(request.query.limit))
    },
  )

  app.get(
    '/projects/:projectId/insights.csv',
    {
      schema: {
        tags: ['insights'],
        summary: "A project's reader insights as CSV (table,key,day,total,detail)",
        params: projectIdParams,
        querystring: insightsQuery,
        produces: ['text/csv'],
        response: { 200: { type: 'string', description: 'CSV' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      const range = rangeOf(request.query)
      const report = await app.insights.report(project, range, Number(request.query.limit))
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${project.slug}-insights-${range.from}-${range.to}.csv"`,
        )
        .send(reportCsv(report))
    },
  )

  app.put(
    '/projects/:projectId/insights/settings',
    {
      schema: {
        tags: ['insights'],
        summary: "Turn a project's reader insights on or off",
        params: projectIdParams,
        body: ref(InsightsSettings),
        response: { 200: ref(InsightsSettings), ...errorResponses },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      await app.insights.setEnabled(project.id, request.body.enabled)
      return { enabled: request.body.enabled }
    },
  )
}
