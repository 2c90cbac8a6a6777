/**
 * Deployments of a project, addressed by slug: create with a manifest, upload the missing files
 * (multipart batches, or ordered chunks for large files), finalize (build in a worker, optionally
 * promote), list, read, promote. A deploy key of the project may use every route here but promote
 * (a rollback needs a user token); its own finalize still makes the deployment it pushed live.
 */
import { finished, PassThrough, type Readable } from 'node:stream'
import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import {
  ChunkParams,
  ChunkQuery,
  ChunkResult,
  conflictResponse,
  Deployment,
  DeploymentCreate,
  DeploymentCreated,
  DeploymentList,
  DeploymentListQuery,
  DIAGNOSTICS_SHOWN,
  deploymentParams,
  errorResponses,
  FailedBuild,
  FilesBatchResult,
  Finalize,
  outOfStorageResponse,
  ref,
  slugParams,
  storeFaultResponse,
  tooLargeResponse,
  tooManyResponse,
} from '../../schemas/api/index.js'
import { requireProjectAccess } from '../auth/actor.js'
import type { DeploymentRow } from '../db/repositories/deployments.js'
import { decodeCursor } from '../db/repositories/deployments.js'
import type { ProjectRow } from '../db/repositories/projects.js'
import {
  BlobStoreFault,
  ChunkRefused,
  ManifestInvalid,
  type ManifestIssue,
  ManifestTooLarge,
  NotUploading,
  QuotaExceeded,
  UploadIncomplete,
} from '../deployments/errors.js'
import { requireUploading } from '../deployments/service.js'
import {
  ApiError,
  badRequest,
  conflict,
  type Issue,
  isOutOfSpace,
  notFound,
  outOfStorage,
  storeFault,
  tooLarge,
} from '../errors.js'
import { presentDeployment } from '../presenters.js'
import type { ApiRoutes } from '../schemas.js'

const errors = { ...errorResponses, ...conflictResponse } as const

/** A refused manifest file in the API's words, at its place in the request body. */
function manifestIssue(issue: ManifestIssue): Issue {
  if (issue.problem === 'size') {
    return { path: `body/files/${issue.index}/size`, message: `larger than the ${issue.limit}-byte limit` }
  }
  return {
    path: `body/files/${issue.index}/path`,
    message: issue.problem === 'path' ? issue.rule : `duplicate path ${issue.path}`,
  }
}

/**
 * The deployment service's refusals as the API's answers (400, 409, 413, 429); a fault of the blob
 * store answers 507 for a full disk, else 503 saying what failed (the whole error goes to the log),
 * each closing the connection; never a 500 or a 400. Anything else passes on unchanged.
 */
function answerFor(error: unknown, request: FastifyRequest): unknown {
  if (error instanceof ManifestTooLarge)
    return tooLarge(error.message, [{ path: 'body/files', message: error.rule }])
  if (error instanceof ManifestInvalid) {
    const issues = error.issues.map(manifestIssue)
    return error.tooLarge
      ? tooLarge('A file is larger than the limit', issues)
      : badRequest('Invalid file manifest', issues)
  }
  if (error instanceof QuotaExceeded) {
    return new ApiError(429, error.message, [{ path: 'body', message: error.rule }], {
      'retry-after': String(error.retryAfterSeconds),
    })
  }
  if (error instanceof NotUploading) return conflict(error.message)
  if (error instanceof UploadIncomplete) {
    return badRequest(
      error.message,
      error.missingPaths.map((path) => ({ path, message: 'missing' })),
    )
  }
  if (error instanceof ChunkRefused) {
    if (error.reason === 'past-end') {
      return badRequest(error.message, [
        { path: 'querystring/offset', message: `offset + length must not exceed ${error.expected}` },
      ])
    }
    if (error.reason === 'out-of-order') {
      return conflict(error.message, [{ path: 'querystring/offset', message: `expected ${error.expected}` }])
    }
    return badRequest(error.message, [{ path: 'params/sha256', message: 'hash mismatch' }])
  }
  if (error instanceof BlobStoreFault) {
    if (isOutOfSpace(error.cause)) return outOfStorage()
    request.log.error({ err: error.cause }, `the blob store could not ${error.action}`)
    return storeFault(error.action, error.described)
  }
  return error
}

/** A call of the deployment service, its refusals answered as the API's errors. */
async function answering<T>(request: FastifyRequest, call: () => T | Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw answerFor(error, request)
  }
}

/** The request body failed while a part streamed into the store: a problem of the request. */
class BodyError extends Error {
  constructor(override readonly cause: unknown) {
    super('the request body failed')
  }
}

/**
 * A part's bytes as the store reads them, with the body's own failures (truncated, over the size
 * limit) marked as `BodyError`, so a fault of the store is never taken for a malformed request.
 */
function partBytes(file: Readable): Readable {
  const bytes = new PassThrough()
  // A store that failed before reading leaves these bytes unread: a later error then has nobody to tell.
  bytes.on('error', () => {})
  // An error, or a close before the end (the body cut short): `pipe` passes neither on by itself.
  finished(file, (error) => {
    if (error && !bytes.writableEnded && !bytes.destroyed) bytes.destroy(new BodyError(error))
  })
  return file.pipe(bytes)
}

/** A multipart parser's error: too large (413), or a malformed body (400). */
function multipartProblem(error: unknown, maxRequestBytes: number): ApiError {
  if (error instanceof ApiError) return error
  const code = (error as { code?: string } | null)?.code
  if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT') {
    return tooLarge(`A batch may hold at most ${maxRequestBytes} bytes; send fewer files a request`)
  }
  return badRequest(`Malformed multipart body: ${(error as Error).message}`, [
    { path: 'body', message: 'truncated or invalid multipart/form-data' },
  ])
}

export const deploymentRoutes: ApiRoutes = async (app) => {
  const { config, repos, deploymentService: deployments } = app
  const deploymentIn = async (
    request: FastifyRequest,
    params: { slug: string; id: string },
  ): Promise<{ project: ProjectRow; deployment: DeploymentRow }> => {
    const project = await requireProjectAccess(request, params.slug, { allowDeployKey: true, by: 'slug' })
    const deployment = await repos.deployments.findInProject(project.id, params.id)
    if (!deployment) throw notFound(`No deployment "${params.id}" in project "${project.slug}"`)
    return { project, deployment }
  }
  /** With its first diagnostics; the project re-read so `live` reflects a promotion that just happened. */
  const present = async (project: ProjectRow, deployment: DeploymentRow) => {
    const fresh = (await repos.projects.findById(project.id)) ?? project
    const { diagnostics } = await repos.deployments.diagnostics(deployment.id, 0, DIAGNOSTICS_SHOWN)
    return presentDeployment(config, fresh, deployment, diagnostics)
  }

  await app.register(multipart, {
    limits: {
      fileSize: config.maxRequestBytes,
      files: config.maxFilesPerDeployment,
      fields: 0,
      fieldNameSize: 1100,
      parts: config.maxFilesPerDeployment,
    },
  })
  // Chunks of large files arrive raw; Fastify enforces bodyLimit (4 MB) and answers 413 beyond it.
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  )

  app.post(
    '/projects/slug/:slug/deployments',
    {
      schema: {
        tags: ['deployments'],
        summary: 'Create a deployment from a file manifest; answers the hashes to upload',
        params: slugParams,
        body: ref(DeploymentCreate),
        response: {
          201: ref(DeploymentCreated),
          ...tooLargeResponse,
          ...tooManyResponse,
          ...outOfStorageResponse,
          ...storeFaultResponse,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const project = await requireProjectAccess(request, request.params.slug, {
        allowDeployKey: true,
        by: 'slug',
      })
      const { branch, commitMessage, environment, files } = request.body
      const { deployment, missing } = await answering(request, () =>
        deployments.create(project, { branch, commitMessage, environment, files }),
      )
      return reply.code(201).send({ deployment: presentDeployment(config, project, deployment, []), missing })
    },
  )

  app.post(
    '/projects/slug/:slug/deployments/:id/files/batch',
    {
      schema: {
        tags: ['deployments'],
        summary: 'Upload files: multipart, one part per file named by its manifest path, at most 4 MB',
        params: deploymentParams,
        consumes: ['multipart/form-data'],
        response: {
          200: ref(FilesBatchResult),
          ...tooLargeResponse,
          ...outOfStorageResponse,
          ...storeFaultResponse,
          ...errors,
        },
      },
    },
    async (request) => {
      const declared = Number(request.headers['content-length'] ?? 0)
      if (declared > config.maxRequestBytes) {
        throw tooLarge(`A batch may hold at most ${config.maxRequestBytes} bytes; send fewer files a request`)
      }
      const { deployment } = await deploymentIn(request, request.params)
      await answering(request, () => requireUploading(deployment))
      if (!request.isMultipart())
        throw badRequest('Expected a multipart/form-data body with one part per file')

      const received: { path: string; sha256: string }[] = []
      const issues: Issue[] = []
      let total = 0
      // Errors of the parser are the request's (400, 413); of the store ours (503, 507); of the
      // database go to the error handler.
      const parts = request.parts()
      try {
        for (;;) {
          const next = await parts.next().catch((error: unknown) => {
            throw multipartProblem(error, config.maxRequestBytes)
          })
          if (next.done) break
          const part = next.value
          if (part.type !== 'file') continue
          const path = part.fieldname
          const [entry] = await repos.deployments.filesByPath(deployment.id, [path])
          if (!entry) {
            part.file.resume()
            issues.push({ path, message: 'not in the deployment manifest' })
            continue
          }
          const file = { sha256: entry.sha256, size: Number(entry.size) }
          const stored = await deployments
            .receive(deployment, file, partBytes(part.file))
            .catch((error: unknown) => {
              // The body failed while it streamed into the store: the request's problem, not the store's.
              if (error instanceof BlobStoreFault && error.cause instanceof BodyError) {
                throw multipartProblem(error.cause.cause, config.maxRequestBytes)
              }
              throw answerFor(error, request)
            })
          total += stored.size
          if (part.file.truncated || total > config.maxRequestBytes) {
            throw tooLarge(
              `A batch may hold at most ${config.maxRequestBytes} bytes; send fewer files a request`,
            )
          }
          if (!stored.ok) {
            issues.push({
              path,
              message:
                stored.reason === 'too-large'
                  ? `larger than the ${entry.size} bytes the manifest declares`
                  : `content hashes to ${stored.sha256}, the manifest declares ${entry.sha256}`,
            })
            continue
          }
          received.push({ path, sha256: entry.sha256 })
        }
      } finally {
        await parts.return?.(undefined).catch(() => undefined)
      }
      if (issues.length) throw badRequest('Some files were refused; nothing of theirs was stored', issues)
      return { received, missing: await repos.deployments.missingHashes(deployment.id) }
    },
  )

  app.put(
    '/projects/slug/:slug/deployments/:id/files/chunks/:sha256',
    {
      schema: {
        tags: ['deployments'],
        summary: 'Upload a large file in ordered chunks (application/octet-stream, at most 4 MB each)',
        params: ChunkParams,
        querystring: ChunkQuery,
        consumes: ['application/octet-stream'],
        response: {
          200: ref(ChunkResult),
          ...tooLargeResponse,
          ...outOfStorageResponse,
          ...storeFaultResponse,
          ...errors,
        },
      },
    },
    async (request) => {
      const { deployment } = await deploymentIn(request, request.params)
      await answering(request, () => requireUploading(deployment))
      const { sha256 } = request.params
      const entry = await repos.deployments.fileWithHash(deployment.id, sha256)
      if (!entry) throw notFound(`No file with sha256 ${sha256} in deployment ${deployment.id}`)
      const file = { sha256, size: Number(entry.size), received: entry.received === 1 }
      const chunk = Buffer.isBuffer(request.body) ? request.body : undefined
      if (!chunk && !file.received) {
        throw badRequest('Expected Content-Type: application/octet-stream with the chunk bytes')
      }
      const offset = Number(request.query.offset)
      const progress = await answering(request, () =>
        deployments.receiveChunk(deployment, file, offset, chunk ?? new Uint8Array()),
      )
      return { sha256, ...progress }
    },
  )

  app.post(
    '/projects/slug/:slug/deployments/:id/finalize',
    {
      schema: {
        tags: ['deployments'],
        summary: 'Check the upload is complete, build in a worker, promote when asked (default)',
        params: deploymentParams,
        body: ref(Finalize),
        response: {
          200: ref(Deployment),
          202: ref(Deployment),
          422: ref(FailedBuild),
          ...errors,
        },
      },
      // No body at all means every default: the schema fills them in.
      preValidation: async (request: FastifyRequest) => {
        request.body ??= {}
      },
    },
    async (request, reply) => {
      const { body } = request
      const { project, deployment } = await deploymentIn(request, request.params)
      const current = await answering(request, () =>
        deployments.finalize(project, deployment, { promote: body.promote, waitMs: body.waitSeconds * 1000 }),
      )
      const record = await present(project, current)
      if (current.status === 'failed') {
        return reply
          .code(422)
          .send({ error: current.error ?? 'The build failed; see diagnostics', deployment: record })
      }
      return reply.code(current.status === 'ready' ? 200 : 202).send(record)
    },
  )

  app.get(
    '/projects/slug/:slug/deployments',
    {
      schema: {
        tags: ['deployments'],
        summary: 'List deployments, newest first (diagnostics counted, not listed)',
        params: slugParams,
        querystring: DeploymentListQuery,
        response: { 200: ref(DeploymentList), ...errors },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.slug, {
        allowDeployKey: true,
        by: 'slug',
      })
      const cursor = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor)
      if (request.query.cursor !== undefined && !cursor) {
        throw badRequest('Invalid cursor: pass nextCursor from the previous page', [
          { path: 'querystring/cursor', message: 'not a cursor this server issued' },
        ])
      }
      const page = await repos.deployments.list(project.id, Number(request.query.limit), cursor)
      return {
        deployments: page.deployments.map((row) => presentDeployment(config, project, row)),
        nextCursor: page.nextCursor,
      }
    },
  )

  app.get(
    '/projects/slug/:slug/deployments/:id',
    {
      schema: {
        tags: ['deployments'],
        summary: 'Read one deployment, with its first diagnostics',
        params: deploymentParams,
        response: { 200: ref(Deployment), ...errors },
      },
    },
    async (request) => {
      const { project, deployment } = await deploymentIn(request, request.params)
      const { diagnostics } = await repos.deployments.diagnostics(deployment.id, 0, DIAGNOSTICS_SHOWN)
      return presentDeployment(config, project, deployment, diagnostics)
    },
  )

  app.post(
    '/projects/slug/:slug/deployments/:id/promote',
    {
      schema: {
        tags: ['deployments'],
        summary: 'Make a ready deployment live (rollback is promoting an older one)',
        params: deploymentParams,
        response: { 200: ref(Deployment), ...errors },
      },
    },
    async (request) => {
      const project = await requireProjectAccess(request, request.params.slug, {
        allowDeployKey: false,
        by: 'slug',
      })
      const deployment = await repos.deployments.findInProject(project.id, request.params.id)
      if (!deployment) throw notFound(`No deployment "${request.params.id}" in project "${project.slug}"`)
      if (deployment.status !== 'ready') {
        throw conflict(`Only a ready deployment can go live; ${deployment.id} is ${deployment.status}`)
      }
      await repos.projects.setLiveDeployment(project.id, deployment.id)
      await app.siteChanged.project(project.id, 'promote')
      return present(project, deployment)
    },
  )
}
