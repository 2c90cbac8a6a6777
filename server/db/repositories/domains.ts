/** Custom domains: claims of a (hostname, path prefix) by a project, and the state of their DNS proof. */
import type { Kysely, Selectable } from 'kysely'
import { newId, nowIso } from '../../ids.js'
import { type DomainStatus, type DomainsTable, newChallenge } from '../migrations/005_domains.js'
import type { Database } from '../schema.js'

export type DomainRow = Selectable<DomainsTable>
export type { DomainStatus }

/** A verified mount of a live project on a host, as the site router needs it. */
export interface DomainMount {
  pathPrefix: string
  projectId: string
  slug: string
  liveDeploymentId: string | null
}

/** What one DNS check changes on a row. */
export interface DomainCheckUpdate {
  status: DomainStatus
  failure_reason: string | null
  failure_message: string | null
  record_checks: string
  last_checked_at: string
  verified_at: string | null
  failing_since: string | null
  unverified_since: string
}

export function domainsRepository(db: Kysely<Database>) {
  return {
    /**
     * `undefined` when this project already has a live (not expired) claim of the (hostname, prefix);
     * the unique index decides. Other projects' unverified claims of the name do not stand in the way.
     */
    async create(input: {
      projectId: string
      hostname: string
      pathPrefix: string
    }): Promise<DomainRow | undefined> {
      const now = nowIso()
      const row: DomainRow = {
        id: newId('dom'),
        project_id: input.projectId,
        hostname: input.hostname,
        path_prefix: input.pathPrefix,
        challenge: newChallenge(),
        status: 'pending',
        failure_reason: null,
        failure_message: null,
        record_checks: '{}',
        created_at: now,
        verified_at: null,
        last_checked_at: null,
        failing_since: null,
        unverified_since: now,
      }
      const result = await db
        .insertInto('domains')
        .values(row)
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1 ? row : undefined
    },

    /** The verified claim of a (hostname, prefix), whoever made it: the one that holds the name. */
    findVerifiedClaim: (hostname: string, pathPrefix: string): Promise<DomainRow | undefined> =>
      db
        .selectFrom('domains')
        .selectAll()
        .where('hostname', '=', hostname)
        .where('path_prefix', '=', pathPrefix)
        .where('status', '=', 'verified')
        .executeTakeFirst(),

    /** Unverified (pending or failed) claims in all projects of one owner. */
    async countUnverifiedByOwner(ownerId: string): Promise<number> {
      const row = await db
        .selectFrom('domains')
        .innerJoin('projects', 'projects.id', 'domains.project_id')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
        .where('projects.owner_id', '=', ownerId)
        .where('domains.status', 'in', ['pending', 'failed'])
        .executeTakeFirst()
      return Number(row?.count ?? 0)
    },

    listByProject: (projectId: string): Promise<DomainRow[]> =>
      db
        .selectFrom('domains')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),

    findInProject: (projectId: string, id: string): Promise<DomainRow | undefined> =>
      db
        .selectFrom('domains')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst(),

    findById: (id: string): Promise<DomainRow | undefined> =>
      db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst(),

    async remove(id: string): Promise<void> {
      await db.deleteFrom('domains').where('id', '=', id).execute()
    },

    /** Verified mounts on a host, longest prefix first: the site router's only question. */
    async servingMounts(hostname: string): Promise<DomainMount[]> {
      const rows = await db
        .selectFrom('domains')
        .innerJoin('projects', 'projects.id', 'domains.project_id')
        .select([
          'domains.path_prefix as pathPrefix',
          'projects.id as projectId',
          'projects.slug as slug',
          'projects.live_deployment_id as liveDeploymentId',
        ])
        .where('domains.hostname', '=', hostname)
        .where('domains.status', '=', 'verified')
        .execute()
      return rows.sort((a, b) => b.pathPrefix.length - a.pathPrefix.length)
    },

    /** True when some project has proven this host (any prefix): the TLS `ask` answer. */
    async isVerifiedHost(hostname: string): Promise<boolean> {
      const row = await db
        .selectFrom('domains')
        .select('id')
        .where('hostname', '=', hostname)
        .where('status', '=', 'verified')
        .executeTakeFirst()
      return row !== undefined
    },

    /** Claims whose last check is older than `checkedBefore` (or never made), oldest first. */
    dueForCheck: (checkedBefore: string, limit: number): Promise<DomainRow[]> =>
      db
        .selectFrom('domains')
        .selectAll()
        .where('status', '<>', 'expired')
        .where((eb) => eb.or([eb('last_checked_at', 'is', null), eb('last_checked_at', '<', checkedBefore)]))
        .orderBy('last_checked_at')
        .orderBy('id')
        .limit(limit)
        .execute(),

    /**
     * Take a row for one background check: a conditional update of `last_checked_at`, so of several
     * replicas only one checks a domain in a round.
     */
    async claimCheck(row: DomainRow, now: string): Promise<boolean> {
      const result = await db
        .updateTable('domains')
        .set({ last_checked_at: now })
        .where('id', '=', row.id)
        .where((eb) =>
          row.last_checked_at === null
            ? eb('last_checked_at', 'is', null)
            : eb('last_checked_at', '=', row.last_checked_at),
        )
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    /** Store a check's outcome; an expired claim stays expired (another project may have taken it meanwhile). */
    async recordCheck(id: string, update: DomainCheckUpdate): Promise<DomainRow | undefined> {
      await db
        .updateTable('domains')
        .set(update)
        .where('id', '=', id)
        .where('status', '<>', 'expired')
        .execute()
      return db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst()
    },

    /**
     * Make an unverified claim the verified one of its (hostname, prefix), in one transaction: every
     * other unverified claim of the name gets `takenOver(row)`. `'claimed_elsewhere'` when another
     * project's claim is verified already (also when one won a race: the unique index decides).
     */
    async takeVerified(
      row: DomainRow,
      update: DomainCheckUpdate,
      takenOver: (other: DomainRow) => DomainCheckUpdate,
    ): Promise<DomainRow | 'claimed_elsewhere'> {
      try {
        return await db.transaction().execute(async (trx) => {
          const others = await trx
            .selectFrom('domains')
            .selectAll()
            .where('hostname', '=', row.hostname)
            .where('path_prefix', '=', row.path_prefix)
            .where('status', '<>', 'expired')
            .where('id', '<>', row.id)
            .execute()
          const current = await trx
            .selectFrom('domains')
            .selectAll()
            .where('id', '=', row.id)
            .executeTakeFirst()
          if (!current || current.status === 'expired') return current ?? row
          if (others.some((other) => other.status === 'verified')) return 'claimed_elsewhere'
          for (const other of others)
            await trx.updateTable('domains').set(takenOver(other)).where('id', '=', other.id).execute()
          await trx.updateTable('domains').set(update).where('id', '=', row.id).execute()
          return trx.selectFrom('domains').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()
        })
      } catch (error) {
        if (isUniqueViolation(error)) return 'claimed_elsewhere'
        throw error
      }
    },
  }
}

/** A unique index refused the write: PostgreSQL's 23505, SQLite's SQLITE_CONSTRAINT_UNIQUE. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE'
}
