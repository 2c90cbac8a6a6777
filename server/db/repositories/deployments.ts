import type { Kysely, Selectable, Transaction } from 'kysely'
import { capDiagnostics, type Diagnostic } from '../../../compiler/diagnostics.js'
import { newId, nowIso } from '../../ids.js'
import { newPreviewToken } from '../../sites/preview-token.js'
import type { Database, DeploymentFilesTable, DeploymentStatus, DeploymentsTable } from '../schema.js'

export type DeploymentRow = Selectable<DeploymentsTable>
export type DeploymentFileRow = Selectable<DeploymentFilesTable>

export interface ManifestEntry {
  path: string
  sha256: string
  size: number
}

// SQLite binds at most 32,766 parameters a statement; keep every IN list and multi-row insert well under.
const chunkSize = 500
function* chunks<T>(items: readonly T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += chunkSize) yield items.slice(start, start + chunkSize)
}

type Executor = Kysely<Database> | Transaction<Database>

/**
 * Store a deployment's diagnostics in place of any it had: errors first, each message shortened, at
 * most 256 KB of them with a last one counting the rest (see `capDiagnostics`). Answers the counts to
 * set on the deployment's row, in the same transaction where there is one.
 */
export async function replaceDiagnostics(
  db: Executor,
  deploymentId: string,
  diagnostics: readonly Diagnostic[],
): Promise<{ diagnostic_count: number; error_count: number }> {
  const kept = capDiagnostics(diagnostics, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY)
  await db.deleteFrom('deployment_diagnostics').where('deployment_id', '=', deploymentId).execute()
  // Nine values a row: well under SQLite's bound parameters per statement.
  for (let start = 0; start < kept.length; start += chunkSize) {
    await db
      .insertInto('deployment_diagnostics')
      .values(
        kept.slice(start, start + chunkSize).map((diagnostic, index) => ({
          deployment_id: deploymentId,
          seq: start + index,
          severity: diagnostic.severity,
          file: diagnostic.file,
          line: diagnostic.line ?? null,
          column: diagnostic.column ?? null,
          path: diagnostic.path ?? null,
          rule: diagnostic.rule,
          message: diagnostic.message,
        })),
      )
      .execute()
  }
  return {
    diagnostic_count: kept.length,
    error_count: kept.filter((diagnostic) => diagnostic.severity === 'error').length,
  }
}

/** The counts of a deployment that holds only `diagnostic`, to set with the status that explains it. */
const oneError = { diagnostic_count: 1, error_count: 1 } as const

export const INTERRUPTED_BY_RESTART = 'The build was interrupted by a server restart; push again'

/** Page cursors are opaque to clients: base64url of the last row's (created_at, id). */
export const encodeCursor = (row: Pick<DeploymentRow, 'created_at' | 'id'>): string =>
  Buffer.from(JSON.stringify([row.created_at, row.id])).toString('base64url')

export function decodeCursor(cursor: string): [string, string] | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string')) {
      return [value[0] as string, value[1] as string]
    }
  } catch {}
  return undefined
}

export function deploymentsRepository(db: Kysely<Database>) {
  /** Hashes of `candidates` that some earlier deployment of the project already stored. */
  async function heldHashes(
    trx: Kysely<Database> | Transaction<Database>,
    projectId: string,
    candidates: readonly string[],
  ): Promise<Set<string>> {
    const held = new Set<string>()
    for (const part of chunks(candidates)) {
      const rows = await trx
        .selectFrom('deployment_files')
        .innerJoin('deployments', 'deployments.id', 'deployment_files.deployment_id')
        .select('deployment_files.sha256')
        .distinct()
        .where('deployments.project_id', '=', projectId)
        .where('deployment_files.received', '=', 1)
        .where('deployment_files.sha256', 'in', part)
        .execute()
      for (const row of rows) held.add(row.sha256)
    }
    return held
  }

  return {
    /**
     * A new deployment in `uploading` with its whole manifest. Files whose hash the project already
     * holds (and `blobExists` confirms) count as received, so they are never uploaded twice.
     */
    async create(input: {
      projectId: string
      branch: string
      commitMessage: string | null
      environment: string | null
      /** The commit of a Git-connected deployment. */
      commit?: { sha: string; author: string | null }
      files: readonly ManifestEntry[]
      blobExists: (sha256: string) => Promise<boolean>
    }): Promise<{ deployment: DeploymentRow; missing: string[] }> {
      const hashes = [...new Set(input.files.map((file) => file.sha256))]
      const held = await heldHashes(db, input.projectId, hashes)
      for (const hash of held) if (!(await input.blobExists(hash))) held.delete(hash)
      const now = nowIso()
      const deployment: DeploymentRow = {
        id: newId('dpl'),
        project_id: input.projectId,
        status: 'uploading',
        branch: input.branch,
        commit_message: input.commitMessage,
        environment: input.environment,
        file_count: input.files.length,
        total_bytes: input.files.reduce((sum, file) => sum + file.size, 0),
        diagnostic_count: 0,
        error_count: 0,
        timings: '{}',
        stats: null,
        error: null,
        site_manifest_sha256: null,
        build_cache_sha256: null,
        preview_token: newPreviewToken(),
        live_at: null,
        commit_sha: input.commit?.sha ?? null,
        commit_author: input.commit?.author ?? null,
        created_at: now,
        updated_at: now,
      }
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('deployments').values(deployment).execute()
        for (const part of chunks(input.files)) {
          await trx
            .insertInto('deployment_files')
            .values(
              part.map((file) => ({
                deployment_id: deployment.id,
                path: file.path,
                sha256: file.sha256,
                size: file.size,
                received: held.has(file.sha256) ? 1 : 0,
              })),
            )
            .execute()
        }
      })
      return { deployment, missing: hashes.filter((hash) => !held.has(hash)) }
    },

    findInProject: (projectId: string, id: string): Promise<DeploymentRow | undefined> =>
      db
        .selectFrom('deployments')
        .selectAll()
        .where('id', '=', id)
        .where('project_id', '=', projectId)
        .executeTakeFirst(),

    /** The deployment a preview host names, only within the project of that host's slug. */
    findByPreviewToken: (projectId: string, token: string): Promise<DeploymentRow | undefined> =>
      db
        .selectFrom('deployments')
        .selectAll()
        .where('preview_token', '=', token)
        .where('project_id', '=', projectId)
        .executeTakeFirst(),

    findById: (id: string): Promise<DeploymentRow | undefined> =>
      db.selectFrom('deployments').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Newest first; `cursor` continues after the last row of the previous page. */
    async list(projectId: string, limit: number, cursor?: [string, string]) {
      let query = db
        .selectFrom('deployments')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1)
      if (cursor) {
        const [createdAt, id] = cursor
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', createdAt),
            eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)]),
          ]),
        )
      }
      const rows = await query.execute()
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return { deployments: page, nextCursor: rows.length > limit && last ? encodeCursor(last) : null }
    },

    /**
     * Diagnostics `offset` on, at most `limit`, in stored order (errors first); `next` is the offset of
     * the one after the last, or null at the end.
     */
    async diagnostics(
      deploymentId: string,
      offset: number,
      limit: number,
    ): Promise<{ diagnostics: Diagnostic[]; next: number | null }> {
      const rows = await db
        .selectFrom('deployment_diagnostics')
        .selectAll()
        .where('deployment_id', '=', deploymentId)
        .where('seq', '>=', offset)
        .orderBy('seq')
        .limit(limit + 1)
        .execute()
      const page = rows.slice(0, limit).map(
        (row): Diagnostic => ({
          severity: row.severity,
          file: row.file,
          ...(row.line === null ? {} : { line: Number(row.line) }),
          ...(row.column === null ? {} : { column: Number(row.column) }),
          ...(row.path === null ? {} : { path: row.path }),
          rule: row.rule,
          message: row.message,
        }),
      )
      const last = rows.at(limit - 1)
      return { diagnostics: page, next: rows.length > limit && last ? Number(last.seq) + 1 : null }
    },

    files: (deploymentId: string): Promise<DeploymentFileRow[]> =>
      db
        .selectFrom('deployment_files')
        .selectAll()
        .where('deployment_id', '=', deploymentId)
        .orderBy('path')
        .execute(),

    filesByPath: async (deploymentId: string, paths: readonly string[]): Promise<DeploymentFileRow[]> => {
      const found: DeploymentFileRow[] = []
      for (const part of chunks(paths)) {
        found.push(
          ...(await db
            .selectFrom('deployment_files')
            .selectAll()
            .where('deployment_id', '=', deploymentId)
            .where('path', 'in', part)
            .execute()),
        )
      }
      return found
    },

    fileWithHash: (deploymentId: string, sha256: string): Promise<DeploymentFileRow | undefined> =>
      db
        .selectFrom('deployment_files')
        .selectAll()
        .where('deployment_id', '=', deploymentId)
        .where('sha256', '=', sha256)
        .executeTakeFirst(),

    async markReceived(deploymentId: string, sha256: string): Promise<void> {
      await db
        .updateTable('deployment_files')
        .set({ received: 1 })
        .where('deployment_id', '=', deploymentId)
        .where('sha256', '=', sha256)
        .execute()
    },

    async missingHashes(deploymentId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('deployment_files')
        .select('sha256')
        .distinct()
        .where('deployment_id', '=', deploymentId)
        .where('received', '=', 0)
        .orderBy('sha256')
        .execute()
      return rows.map((row) => row.sha256)
    },

    async missingPaths(deploymentId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('deployment_files')
        .select('path')
        .where('deployment_id', '=', deploymentId)
        .where('received', '=', 0)
        .orderBy('path')
        .execute()
      return rows.map((row) => row.path)
    },

    /**
     * Move `uploading` → `building` only once: the conditional update makes two racing finalize calls
     * start one build.
     */
    async claimForBuild(deploymentId: string, uploadMs: number): Promise<boolean> {
      const result = await db
        .updateTable('deployments')
        .set({ status: 'building', timings: JSON.stringify({ uploadMs }), updated_at: nowIso() })
        .where('id', '=', deploymentId)
        .where('status', '=', 'uploading')
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    async finishBuild(
      deploymentId: string,
      outcome: {
        status: Extract<DeploymentStatus, 'ready' | 'failed'>
        diagnostics: readonly Diagnostic[]
        timings: Record<string, number>
        stats: { pagesRendered: number; pagesReused: number } | null
        error: string | null
        siteManifestSha256: string | null
        buildCacheSha256: string | null
      },
    ): Promise<void> {
      const counts = await replaceDiagnostics(db, deploymentId, outcome.diagnostics)
      await db
        .updateTable('deployments')
        .set({
          status: outcome.status,
          ...counts,
          timings: JSON.stringify(outcome.timings),
          stats: outcome.stats ? JSON.stringify(outcome.stats) : null,
          error: outcome.error,
          site_manifest_sha256: outcome.siteManifestSha256,
          build_cache_sha256: outcome.buildCacheSha256,
          updated_at: nowIso(),
        })
        .where('id', '=', deploymentId)
        .execute()
    },

    /** The newest ready deployment of the project with a build cache, for incremental rebuilds. */
    latestReadyWithCache: (projectId: string): Promise<DeploymentRow | undefined> =>
      db
        .selectFrom('deployments')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('status', '=', 'ready')
        .where('build_cache_sha256', 'is not', null)
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),

    /** Deployments created since `since` (ISO) by a project or by every project of an owner. */
    async usageSince(
      scope: { projectId: string } | { ownerId: string },
      since: string,
    ): Promise<{ deployments: number; files: number; bytes: number }> {
      let query = db
        .selectFrom('deployments')
        .innerJoin('projects', 'projects.id', 'deployments.project_id')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('deployments'),
          eb.fn.sum<number | string | null>('deployments.file_count').as('files'),
          eb.fn.sum<number | string | null>('deployments.total_bytes').as('bytes'),
        ])
        .where('deployments.created_at', '>=', since)
      query =
        'projectId' in scope
          ? query.where('deployments.project_id', '=', scope.projectId)
          : query.where('projects.owner_id', '=', scope.ownerId)
      const row = await query.executeTakeFirst()
      // PostgreSQL answers counts and sums of bigints as strings.
      return {
        deployments: Number(row?.deployments ?? 0),
        files: Number(row?.files ?? 0),
        bytes: Number(row?.bytes ?? 0),
      }
    },

    /**
     * Deployments still `uploading` that were created before `before`: failed with the reason, so a
     * push abandoned mid-upload stops holding its place. Returns their ids (chunk files are keyed by id).
     */
    async expireAbandonedUploads(before: string, reason: string): Promise<string[]> {
      const rows = await db
        .selectFrom('deployments')
        .select('id')
        .where('status', '=', 'uploading')
        .where('created_at', '<', before)
        .execute()
      const expired: string[] = []
      for (const { id } of rows) {
        const result = await db
          .updateTable('deployments')
          .set({ status: 'failed', error: reason, ...oneError, updated_at: nowIso() })
          .where('id', '=', id)
          .where('status', '=', 'uploading')
          .executeTakeFirst()
        if (Number(result.numUpdatedRows) !== 1) continue
        await replaceDiagnostics(db, id, [
          { severity: 'error', file: '', rule: 'upload-expired', message: reason },
        ])
        expired.push(id)
      }
      return expired
    },

    /**
     * Deployments `building` with no waiting or leased job (left by a version before the shared queue,
     * or claimed without `buildJobs.enqueue`) can never finish: they are failed at start with the reason.
     * Builds leased by other replicas have jobs, so starting a replica never touches them.
     */
    async failInterrupted(): Promise<number> {
      const failed = await db
        .updateTable('deployments')
        .set({ status: 'failed', error: INTERRUPTED_BY_RESTART, ...oneError, updated_at: nowIso() })
        .where('status', '=', 'building')
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('build_jobs')
                .select('build_jobs.deployment_id')
                .whereRef('build_jobs.deployment_id', '=', 'deployments.id')
                .where('build_jobs.status', 'in', ['queued', 'leased']),
            ),
          ),
        )
        .returning('id')
        .execute()
      for (const { id } of failed) {
        await replaceDiagnostics(db, id, [
          { severity: 'error', file: '', rule: 'build-interrupted', message: INTERRUPTED_BY_RESTART },
        ])
      }
      return failed.length
    },
  }
}
