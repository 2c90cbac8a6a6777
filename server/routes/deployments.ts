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
import { describeStoreFault } from '../blobs/faults.js'
import { checkDeploymentQuotas } from '../builds/quotas.js'
import type { DeploymentRow } from '../db/repositories/deployments.js'
import { decodeCursor } from '../db/repositories/deployments.js'
import type { ProjectRow } from '../db/repositories/projects.js'
import { manifestPathProblem } from '../deployments/manifest.js'
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

/**
 * A blob-store call: a full disk answers 507, any other fault of the store 503 saying what failed (and
 * the whole error goes to the log), each closing the connection; never a 500 or a 400.
 */
async function storing<T>(request: FastifyRequest, action: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (error instanceof ApiError) throw error
    if (isOutOfSpace(error)) throw outOfStorage()
    request.log.error({ err: error }, `the blob store could not ${action}`)
    throw storeFault(action, describeStoreFault(error))
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
  const { config, repos, blobs } = app
  const deploymentIn = async (
    request: FastifyRequest,
    params: { slug: string; id: string },
  ): Promise<{ project: ProjectRow; deployment: DeploymentRow }> => {
    const project = await requireProjectAccess(request, params.slug, { allowDeployKey: true, by: 'slug' })
    const deployment = await repos.deployments.findInProject(project.id, params.id)
    if (!deployment) throw notFound(`No deployment "${params.id}" in project "${project.slug}"`)
    return { project, deployment }
  }
  const requireUploading = (deployment: DeploymentRow) => {
    if (deployment.status !== 'uploading') {
      throw conflict(
        `Deployment ${deployment.id} is ${deployment.status}; files can only be added while uploading`,
      )
    }
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
      const { files } = request.body
      if (files.length > config.maxFilesPerDeployment) {
        throw tooLarge(
          `A deployment holds at most ${config.maxFilesPerDeployment} files; this one lists ${files.length}`,
          [{ path: 'body/files', message: `more than ${config.maxFilesPerDeployment} files` }],
        )
      }
      const issues: Issue[] = []
      const seen = new Set<string>()
      files.forEach((file, index) => {
        const problem = manifestPathProblem(file.path)
        if (problem) issues.push({ path: `body/files/${index}/path`, message: problem })
        else if (seen.has(file.path))
          issues.push({ path: `body/files/${index}/path`, message: `duplicate path ${file.path}` })
        seen.add(file.path)
        if (file.size > config.maxFileBytes) {
          issues.push({
            path: `body/files/${index}/size`,
            message: `larger than the ${config.maxFileBytes}-byte limit`,
          })
        }
      })
      if (issues.some((issue) => issue.message.startsWith('larger'))) {
        throw tooLarge('A file is larger than the limit', issues)
      }
      if (issues.length) throw badRequest('Invalid file manifest', issues)
      const bytes = files.reduce((sum, file) => sum + file.size, 0)
      await checkDeploymentQuotas(repos, config.quotas, project, { files: files.length, bytes })
      const { deployment, missing } = await repos.deployments.create({
        projectId: project.id,
        branch: request.body.branch,
        commitMessage: request.body.commitMessage,
        environment: request.body.environment,
        files,
        blobExists: (sha256) => storing(request, 'look up the files it holds', () => blobs.touch(sha256)),
      })
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
      requireUploading(deployment)
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
          const stored = await storing(request, 'store the upload', () =>
            blobs
              .putStream(partBytes(part.file), { maxBytes: Number(entry.size), expectedSha256: entry.sha256 })
              .catch((error: unknown) => {
                throw error instanceof BodyError
                  ? multipartProblem(error.cause, config.maxRequestBytes)
                  : error
              }),
          )
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
          await repos.deployments.markReceived(deployment.id, entry.sha256)
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
      requireUploading(deployment)
      const { sha256 } = request.params
      const entry = await repos.deployments.fileWithHash(deployment.id, sha256)
      if (!entry) throw notFound(`No file with sha256 ${sha256} in deployment ${deployment.id}`)
      const size = Number(entry.size)
      if (entry.received === 1) return { sha256, received: size, complete: true }
      if (!Buffer.isBuffer(request.body)) {
        throw badRequest('Expected Content-Type: application/octet-stream with the chunk bytes')
      }
      const chunk = request.body
      const offset = Number(request.query.offset)
      if (offset + chunk.length > size) {
        throw badRequest(`The chunk runs past the ${size} bytes the manifest declares`, [
          { path: 'querystring/offset', message: `offset + length must not exceed ${size}` },
        ])
      }
      const uploadKey = `${deployment.id}-${sha256}`
      const appended = await storing(request, 'store the chunk', () =>
        blobs.appendChunk(uploadKey, offset, chunk),
      )
      if (!appended.ok) {
        throw conflict(`Expected the chunk at offset ${appended.expectedOffset}`, [
          { path: 'querystring/offset', message: `expected ${appended.expectedOffset}` },
        ])
      }
      if (appended.received < size) return { sha256, received: appended.received, complete: false }
      if (!(await storing(request, 'store the file', () => blobs.completeChunks(uploadKey, sha256)))) {
        throw badRequest(
          'The uploaded bytes do not hash to the declared sha256; upload the file again from offset 0',
          [{ path: 'params/sha256', message: 'hash mismatch' }],
        )
      }
      await repos.deployments.markReceived(deployment.id, sha256)
      return { sha256, received: size, complete: true }
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
      if (deployment.status === 'uploading') {
        const missing = await repos.deployments.missingPaths(deployment.id)
        if (missing.length) {
          throw badRequest(
            `${missing.length} file(s) are not uploaded yet`,
            missing.map((path) => ({ path, message: 'missing' })),
          )
        }
        const uploadMs = Date.now() - Date.parse(deployment.created_at)
        // Queued for any replica's workers; a racing finalize call finds it already claimed.
        await app.builds.enqueue(project, deployment, body.promote, uploadMs)
      }
      await app.builds.settled(deployment.id, body.waitSeconds * 1000)
      const current = (await repos.deployments.findById(deployment.id)) ?? deployment
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
