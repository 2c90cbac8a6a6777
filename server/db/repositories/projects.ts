import type { Kysely, Selectable } from 'kysely'
import { newId, nowIso } from '../../ids.js'
import type { Database, ProjectsTable } from '../schema.js'

export type ProjectRow = Selectable<ProjectsTable>

export function projectsRepository(db: Kysely<Database>) {
  /** Remembered for retention: the last N deployments that went live are kept as rollback targets. */
  const markLive = async (deploymentId: string): Promise<void> => {
    await db.updateTable('deployments').set({ live_at: nowIso() }).where('id', '=', deploymentId).execute()
  }
  return {
    listByOwner: (ownerId: string): Promise<ProjectRow[]> =>
      db
        .selectFrom('projects')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),

    findById: (id: string): Promise<ProjectRow | undefined> =>
      db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst(),

    findBySlug: (slug: string): Promise<ProjectRow | undefined> =>
      db.selectFrom('projects').selectAll().where('slug', '=', slug).executeTakeFirst(),

    /** `undefined` when the slug is taken (the unique index decides, so two racing creates cannot both win). */
    async create(input: {
      ownerId: string
      slug: string
      name: string
      description: string | null
    }): Promise<ProjectRow | undefined> {
      const now = nowIso()
      const row: ProjectRow = {
        id: newId('prj'),
        owner_id: input.ownerId,
        slug: input.slug,
        name: input.name,
        description: input.description,
        deployment_name: null,
        live_deployment_id: null,
        created_at: now,
        updated_at: now,
      }
      const result = await db
        .insertInto('projects')
        .values(row)
        .onConflict((conflict) => conflict.column('slug').doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1 ? row : undefined
    },

    async update(
      id: string,
      changes: { name?: string; description?: string | null; deploymentName?: string | null },
    ): Promise<ProjectRow | undefined> {
      await db
        .updateTable('projects')
        .set({
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.description !== undefined ? { description: changes.description } : {}),
          ...(changes.deploymentName !== undefined ? { deployment_name: changes.deploymentName } : {}),
          updated_at: nowIso(),
        })
        .where('id', '=', id)
        .execute()
      return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst()
    },

    /** Promotion: one row update, so a reader sees the old site or the new one, never a mix. */
    /**
     * Make a just-built deployment live unless a newer one already is: builds finish in any order, and
     * an older build finishing last must not roll the site back. One conditional UPDATE, so racing
     * builds cannot both win. Answers whether it went live.
     */
    async promoteBuilt(projectId: string, deploymentId: string, createdAt: string): Promise<boolean> {
      const result = await db
        .updateTable('projects')
        .set({ live_deployment_id: deploymentId, updated_at: nowIso() })
        .where('id', '=', projectId)
        .where((eb) =>
          eb.or([
            eb('live_deployment_id', 'is', null),
            eb(
              'live_deployment_id',
              'in',
              eb
                .selectFrom('deployments')
                .select('id')
                .where('project_id', '=', projectId)
                .where('created_at', '<=', createdAt),
            ),
          ]),
        )
        .executeTakeFirst()
      const promoted = Number(result.numUpdatedRows) > 0
      if (promoted) await markLive(deploymentId)
      return promoted
    },

    /** Deployments, files, keys, domains and analytics go with it (ON DELETE CASCADE); blobs stay shared. */
    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom('projects').where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    async setLiveDeployment(projectId: string, deploymentId: string): Promise<void> {
      await db
        .updateTable('projects')
        .set({ live_deployment_id: deploymentId, updated_at: nowIso() })
        .where('id', '=', projectId)
        .execute()
      await markLive(deploymentId)
    },
  }
}
