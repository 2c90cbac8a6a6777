/**
 * Custom domains of a project (owner only): add, list, remove, read the DNS records, verify now. A
 * domain serves only once DNS proves it: its own TXT value and a routing record to this service.
 * `GET /tls/ask` answers an on-demand TLS proxy (Caddy's `ask`): 200 only for verified host names.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { requireProjectAccess } from '../auth/actor.js'
import type { DomainRow } from '../db/repositories/domains.js'
import { normaliseHostname } from '../domains/hostname.js'
import { normalisePathPrefix } from '../domains/path-prefix.js'
import { presentDomain, presentDomainRecords } from '../domains/presenter.js'
import { badRequest, conflict, type Issue, notFound } from '../errors.js'
import { errorResponses, projectIdParams } from '../schemas.js'

interface DomainParams {
  projectId: string
  domainId: string
}

const domainParams = {
  type: 'object',
  required: ['projectId', 'domainId'],
  properties: {
    projectId: projectIdParams.properties.projectId,
    domainId: { type: 'string', minLength: 1, maxLength: 100 },
  },
} as const

const listSchema = {
  tags: ['domains'],
  summary: "List a project's custom domains",
  params: projectIdParams,
  response: { 200: { $ref: 'DomainList#' }, ...errorResponses },
}

const createSchema = {
  tags: ['domains'],
  summary: 'Add a custom domain (served once verified in DNS)',
  params: projectIdParams,
  body: { $ref: 'DomainCreate#' },
  response: { 201: { $ref: 'Domain#' }, 409: { $ref: 'Error#' }, ...errorResponses },
}

const deleteSchema = {
  tags: ['domains'],
  summary: 'Remove a custom domain; it stops serving at once',
  params: domainParams,
  response: { 204: { type: 'null' }, ...errorResponses },
}

const verificationSchema = {
  tags: ['domains'],
  summary: 'The DNS records a custom domain needs, and what the last check found',
  params: domainParams,
  response: { 200: { $ref: 'DomainVerification#' }, ...errorResponses },
}

const verifySchema = {
  tags: ['domains'],
  summary: "Check a custom domain's DNS records now",
  params: domainParams,
  response: { 200: { $ref: 'Domain#' }, 409: { $ref: 'Error#' }, ...errorResponses },
}

const askSchema = {
  tags: ['domains'],
  summary: 'On-demand TLS check: 200 when the host name is a verified custom domain, else 404',
  querystring: {
    type: 'object',
    required: ['domain'],
    properties: { domain: { type: 'string', minLength: 1, maxLength: 300 } },
  },
  response: { 200: { $ref: 'TlsAsk#' }, 400: { $ref: 'Error#' }, 404: { $ref: 'Error#' } },
}

export const domainRoutes: FastifyPluginAsync = async (app) => {
  const ownedDomain = async (request: FastifyRequest<{ Params: DomainParams }>) => {
    const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
    const row = await app.repos.domains.findInProject(project.id, request.params.domainId)
    if (!row) throw notFound(`No domain "${request.params.domainId}" in project ${project.slug}`)
    return { project, row }
  }
  const forget = (row: DomainRow) => app.sites.hosts.forgetHost(row.hostname)

  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId/domains',
    { schema: listSchema },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      const rows = await app.repos.domains.listByProject(project.id)
      return { domains: rows.map((row) => presentDomain(app.config, project, row)) }
    },
  )

  app.post<{ Params: { projectId: string }; Body: { hostname: string; pathPrefix?: string } }>(
    '/projects/:projectId/domains',
    { schema: createSchema },
    async (request, reply) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      const host = normaliseHostname(request.body.hostname, app.config)
      const prefix = normalisePathPrefix(request.body.pathPrefix)
      const issues: Issue[] = []
      if ('problem' in host) issues.push({ path: 'body/hostname', message: host.problem })
      if ('problem' in prefix) issues.push({ path: 'body/pathPrefix', message: prefix.problem })
      if (!('hostname' in host) || !('pathPrefix' in prefix)) throw badRequest('Invalid domain', issues)
      const claim = { hostname: host.hostname, pathPrefix: prefix.pathPrefix }
      const row = await app.repos.domains.create({ projectId: project.id, ...claim })
      if (!row) {
        const existing = await app.repos.domains.findClaim(claim.hostname, claim.pathPrefix)
        const where = `${claim.hostname}${claim.pathPrefix || '/'}`
        throw conflict(
          existing?.project_id === project.id
            ? `${where} is already a domain of ${project.slug}`
            : `${where} is claimed by another project; choose another path prefix, or wait until an unverified claim expires (30 days after it was added)`,
          [{ path: 'body/hostname', message: 'already claimed with this path prefix' }],
        )
      }
      return reply.code(201).send(presentDomain(app.config, project, row))
    },
  )

  app.delete<{ Params: DomainParams }>(
    '/projects/:projectId/domains/:domainId',
    { schema: deleteSchema },
    async (request, reply) => {
      const { row } = await ownedDomain(request)
      await app.repos.domains.remove(row.id)
      forget(row)
      return reply.code(204).send()
    },
  )

  app.get<{ Params: DomainParams }>(
    '/projects/:projectId/domains/:domainId/verification',
    { schema: verificationSchema },
    async (request) => {
      const { project, row } = await ownedDomain(request)
      const domain = presentDomain(app.config, project, row)
      return {
        domainId: row.id,
        hostname: domain.hostname,
        pathPrefix: domain.pathPrefix,
        status: domain.status,
        records: presentDomainRecords(app.config, project, row),
        failure: domain.failure,
        lastCheckedAt: domain.lastCheckedAt,
      }
    },
  )

  app.post<{ Params: DomainParams }>(
    '/projects/:projectId/domains/:domainId/verify',
    { schema: verifySchema },
    async (request) => {
      const { project, row } = await ownedDomain(request)
      if (row.status === 'expired')
        throw conflict(
          `${row.hostname}${row.path_prefix || '/'} expired before it was verified; remove it and add it again for a new record value`,
        )
      const checked = await app.domains.verify(row)
      return presentDomain(app.config, project, checked)
    },
  )

  app.get<{ Querystring: { domain: string } }>('/tls/ask', { schema: askSchema }, async (request) => {
    const hostname = request.query.domain.toLowerCase().replace(/\.$/, '')
    if (!(await app.repos.domains.isVerifiedHost(hostname)))
      throw notFound(`${hostname} is not a verified custom domain`)
    return { hostname, verified: true }
  })
}
