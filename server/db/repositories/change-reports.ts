/** Change reports of preview deployments, and the screenshot blobs each one holds. */
import type { Kysely, Selectable } from 'kysely'
import { nowIso } from '../../ids.js'
import type { ChangeReportStatus, ChangeReportsTable } from '../migrations/014_change_reports.js'
import type { Database } from '../schema.js'

export type ChangeReportRow = Selectable<ChangeReportsTable>

export function changeReportsRepository(db: Kysely<Database>) {
  return {
    find: (deploymentId: string): Promise<ChangeReportRow | undefined> =>
      db
        .selectFrom('change_reports')
        .selectAll()
        .where('deployment_id', '=', deploymentId)
        .executeTakeFirst(),

    /** Keeps the first report of a deployment: two replicas racing make the same one. */
    async save(input: {
      deploymentId: string
      baseDeploymentId: string | null
      status: ChangeReportStatus
      report: string
      images: readonly string[]
    }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('change_reports')
          .values({
            deployment_id: input.deploymentId,
            base_deployment_id: input.baseDeploymentId,
            status: input.status,
            report: input.report,
            created_at: nowIso(),
          })
          .onConflict((conflict) => conflict.column('deployment_id').doNothing())
          .executeTakeFirst()
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0 || input.images.length === 0) return
        await trx
          .insertInto('change_report_images')
          .values([...new Set(input.images)].map((sha256) => ({ deployment_id: input.deploymentId, sha256 })))
          .onConflict((conflict) => conflict.doNothing())
          .execute()
      })
    },

    async holdsImage(deploymentId: string, sha256: string): Promise<boolean> {
      const row = await db
        .selectFrom('change_report_images')
        .select('sha256')
        .where('deployment_id', '=', deploymentId)
        .where('sha256', '=', sha256)
        .executeTakeFirst()
      return row !== undefined
    },
  }
}
