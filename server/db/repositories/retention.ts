/**
 * What garbage collection reads and deletes: every deployment with what it keeps alive, the source
 * hashes deployments list, and the `gc_runs` record through which replicas take turns.
 */
import type { Kysely } from 'kysely'
import { newId, nowIso } from '../../ids.js'
import type { Database, DeploymentStatus } from '../schema.js'

export interface RetainedDeployment {
  id: string
  projectId: string
  status: DeploymentStatus
  createdAt: string
  liveAt: string | null
  /** The project's live deployment, or a Git branch's current preview: served, so always kept. */
  live: boolean
  siteManifestSha256: string | null
  buildCacheSha256: string | null
}

export interface GcRunOutcome {
  deploymentsDeleted: number
  blobsDeleted: number
  bytesFreed: number
  error: string | null
}

const chunkSize = 500

export function retentionRepository(db: Kysely<Database>) {
  return {
    /** Every deployment (or those changed since `since`), newest first within each project. */
    async deployments(since?: string): Promise<RetainedDeployment[]> {
      let query = db
        .selectFrom('deployments')
        .innerJoin('projects', 'projects.id', 'deployments.project_id')
        .select([
          'deployments.id',
          'deployments.project_id',
          'deployments.status',
          'deployments.created_at',
          'deployments.live_at',
          'deployments.site_manifest_sha256',
          'deployments.build_cache_sha256',
          'projects.live_deployment_id',
          (eb) =>
            eb
              .exists(
                eb
                  .selectFrom('git_branch_previews')
                  .select('git_branch_previews.deployment_id')
                  .whereRef('git_branch_previews.deployment_id', '=', 'deployments.id'),
              )
              .as('branch_preview'),
        ])
        .orderBy('deployments.project_id')
        .orderBy('deployments.created_at', 'desc')
        .orderBy('deployments.id', 'desc')
      if (since !== undefined) {
        query = query.where((eb) =>
          eb.or([eb('deployments.updated_at', '>=', since), eb('deployments.created_at', '>=', since)]),
        )
      }
      const rows = await query.execute()
      return rows.map((row) => ({
        id: row.id,
        projectId: row.project_id,
        status: row.status,
        createdAt: row.created_at,
        liveAt: row.live_at,
        // A Git branch's current preview is served like a live site, at its branch host.
        live: row.live_deployment_id === row.id || Boolean(row.branch_preview),
        siteManifestSha256: row.site_manifest_sha256,
        buildCacheSha256: row.build_cache_sha256,
      }))
    },

    /** Distinct source hashes listed by the given deployments, or by every deployment. */
    async sourceHashes(deploymentIds?: readonly string[]): Promise<Set<string>> {
      const hashes = new Set<string>()
      const add = (rows: { sha256: string }[]) => {
        for (const row of rows) hashes.add(row.sha256)
      }
      const files = db.selectFrom('deployment_files').select('sha256').distinct()
      // A change report's screenshots are blobs of the preview it reports on.
      const images = db.selectFrom('change_report_images').select('sha256').distinct()
      if (deploymentIds === undefined) {
        add(await files.execute())
        add(await images.execute())
        return hashes
      }
      for (let start = 0; start < deploymentIds.length; start += chunkSize) {
        const part = deploymentIds.slice(start, start + chunkSize)
        add(await files.where('deployment_id', 'in', part).execute())
        add(await images.where('deployment_id', 'in', part).execute())
      }
      return hashes
    },

    /**
     * Deletes finished deployments (their file rows go with them), never a live one, a Git branch's
     * current preview or one still uploading or building: checked again in the DELETE itself, so one
     * promoted meanwhile stays. Returns the ids deleted.
     */
    async deleteDeployments(ids: readonly string[]): Promise<string[]> {
      const deleted: string[] = []
      for (let start = 0; start < ids.length; start += chunkSize) {
        const part = ids.slice(start, start + chunkSize)
        const rows = await db
          .deleteFrom('deployments')
          .where('id', 'in', part)
          .where('status', 'in', ['ready', 'failed'])
          .where((eb) =>
            eb.not(
              eb.or([
                eb.exists(
                  eb
                    .selectFrom('projects')
                    .select('projects.id')
                    .whereRef('projects.live_deployment_id', '=', 'deployments.id'),
                ),
                eb.exists(
                  eb
                    .selectFrom('git_branch_previews')
                    .select('git_branch_previews.deployment_id')
                    .whereRef('git_branch_previews.deployment_id', '=', 'deployments.id'),
                ),
              ]),
            ),
          )
          .returning('id')
          .execute()
        deleted.push(...rows.map((row) => row.id))
      }
      return deleted
    },

    /**
     * Records the start of a run. A periodic run names its time slot, so of several replicas only the
     * first to insert it runs; answers undefined for the others.
     */
    async startRun(options: { dryRun: boolean; slot?: string }): Promise<string | undefined> {
      const id = options.slot === undefined ? newId('gc') : `gc_slot_${options.slot}`
      const result = await db
        .insertInto('gc_runs')
        .values({
          id,
          started_at: nowIso(),
          finished_at: null,
          dry_run: options.dryRun ? 1 : 0,
          deployments_deleted: 0,
          blobs_deleted: 0,
          bytes_freed: 0,
          error: null,
        })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1 ? id : undefined
    },

    async finishRun(id: string, outcome: GcRunOutcome): Promise<void> {
      await db
        .updateTable('gc_runs')
        .set({
          finished_at: nowIso(),
          deployments_deleted: outcome.deploymentsDeleted,
          blobs_deleted: outcome.blobsDeleted,
          bytes_freed: outcome.bytesFreed,
          error: outcome.error,
        })
        .where('id', '=', id)
        .execute()
    },
  }
}
