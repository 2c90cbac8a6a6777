/**
 * Custom domains of a project (owner only): add, list, remove, read the DNS records, verify now. A
 * domain serves only once DNS proves it: its own TXT value and a routing record to this service. An
 * unverified claim holds nothing: another project may claim the name too, and whichever proves it
 * first takes it. A user holds a bounded number of unverified claims, each for a bounded number of days.
 * `GET /tls/ask` answers an on-demand TLS proxy (Caddy's `ask`): 200 only for verified host names.
 */
import type { FastifyRequest } from 'fastify'
import {
  conflictResponse,
  Domain,
  DomainCreate,
  DomainList,
  DomainParams,
  DomainVerification,
  ErrorBody,
  errorResponses,
  noContent,
  projectIdParams,
  ref,
  TlsAsk,
  TlsAskQuery,
  tooManyResponse,
} from '../../schemas/api/index.js'
import { requireProjectAccess } from '../auth/actor.js'
import type { DomainRow } from '../db/repositories/domains.js'
import { normaliseHostname } from '../domains/hostname.js'
import { normalisePathPrefix } from '../domains/path-prefix.js'
import { presentDomain, presentDomainRecords } from '../domains/presenter.js'
import { badRequest, conflict, type Issue, notFound, tooMany } from '../errors.js'
import type { ApiRoutes } from '../schemas.js'

export const domainRoutes: ApiRoutes = async (app) => {
  const ownedDomain = async (request: FastifyRequest, params: { projectId: string; domainId: string }) => {
    const project = await requireProjectAccess(request, params.projectId, { allowDeployKey: false })
    const row = await app.repos.domains.findInProject(project.id, params.domainId)
    if (!row) throw notFound(`No domain "${params.domainId}" in project ${project.slug}`)
    return { project, row }
  }
  // Every replica forgets the host, not just this one; the CDN drops the project's pages.
  const forget = async (row: DomainRow) => {
    await app.siteChanged.host(row.hostname, row.project_id, 'domain')
  }

  app.get(
    '/projects/:projectId/domains',
    {
      schema: {
        tags: ['domains'],
        summary: "List a project's custom domains",
        params: projectIdParams,
        response: { 200: ref(DomainList), ...errorResponses },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      const rows = await app.repos.domains.listByProject(project.id)
      return { domains: rows.map((row) => presentDomain(app.config, project, row)) }
    },
  )

  app.post(
    '/projects/:projectId/domains',
    {
      schema: {
        tags: ['domains'],
        summary: 'Add a custom domain (served once verified in DNS)',
        params: projectIdParams,
        body: ref(DomainCreate),
        response: { 201: ref(Domain), ...conflictResponse, ...tooManyResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const project = await requireProjectAccess(request, request.params.projectId, { allowDeployKey: false })
      const host = normaliseHostname(request.body.hostname, app.config)
      const prefix = normalisePathPrefix(request.body.pathPrefix)
      const issues: Issue[] = []
      if ('problem' in host) issues.push({ path: 'body/hostname', message: host.problem })
      if ('problem' in prefix) issues.push({ path: 'body/pathPrefix', message: prefix.problem })
      if (!('hostname' in host) || !('pathPrefix' in prefix)) throw badRequest('Invalid domain', issues)
      const claim = { hostname: host.hostname, pathPrefix: prefix.pathPrefix }
      const where = `${claim.hostname}${claim.pathPrefix || '/'}`
      const claimed = [{ path: 'body/hostname', message: 'already claimed with this path prefix' }]
      // Only a verified claim holds a name; an unverified one is taken by whoever proves it in DNS first.
      const verified = await app.repos.domains.findVerifiedClaim(claim.hostname, claim.pathPrefix)
      if (verified)
        throw conflict(
          verified.project_id === project.id
            ? `${where} is already a domain of ${project.slug}`
            : `${where} is claimed by another project, which verified it in DNS; choose another path prefix`,
          claimed,
        )
      const { pendingPerUser, pendingDays } = app.config.domains
      if ((await app.repos.domains.countUnverifiedByOwner(project.owner_id)) >= pendingPerUser)
        throw tooMany(
          `You have ${pendingPerUser} unverified domains, the most one user may hold; verify or remove one first (unverified domains expire ${pendingDays} days after they are added)`,
        )
      const row = await app.repos.domains.create({ projectId: project.id, ...claim })
      if (!row) throw conflict(`${where} is already a domain of ${project.slug}`, claimed)
      return reply.code(201).send(presentDomain(app.config, project, row))
    },
  )

  app.delete(
    '/projects/:projectId/domains/:domainId',
    {
      schema: {
        tags: ['domains'],
        summary: 'Remove a custom domain; it stops serving at once',
        params: DomainParams,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { row } = await ownedDomain(request, request.params)
      await app.repos.domains.remove(row.id)
      await forget(row)
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/projects/:projectId/domains/:domainId/verification',
    {
      schema: {
        tags: ['domains'],
        summary: 'The DNS records a custom domain needs, and what the last check found',
        params: DomainParams,
        response: { 200: ref(DomainVerification), ...errorResponses },
      },
    },
    async (request) => {
      const { project, row } = await ownedDomain(request, request.params)
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

  app.post(
    '/projects/:projectId/domains/:domainId/verify',
    {
      schema: {
        tags: ['domains'],
        summary: "Check a custom domain's DNS records now",
        params: DomainParams,
        response: { 200: ref(Domain), ...conflictResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { project, row } = await ownedDomain(request, request.params)
      const where = `${row.hostname}${row.path_prefix || '/'}`
      if (row.status === 'expired')
        throw conflict(
          row.failure_reason === 'taken_over'
            ? `${where} was taken over by another project that proved it in DNS; remove this claim, or add the name again if the domain is yours`
            : `${where} expired before it was verified; remove it and add it again for a new record value`,
        )
      const checked = await app.domains.verify(row)
      return presentDomain(app.config, project, checked)
    },
  )

  app.get(
    '/tls/ask',
    {
      schema: {
        tags: ['domains'],
        summary: 'On-demand TLS check: 200 when the host name is a verified custom domain, else 404',
        querystring: TlsAskQuery,
        response: { 200: ref(TlsAsk), 400: ref(ErrorBody), 404: ref(ErrorBody) },
      },
    },
    async (request) => {
      const hostname = request.query.domain.toLowerCase().replace(/\.$/, '')
      if (!(await app.repos.domains.isVerifiedHost(hostname)))
        throw notFound(`${hostname} is not a verified custom domain`)
      return { hostname, verified: true }
    },
  )
}
