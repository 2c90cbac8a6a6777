/** Deploy keys (`dk_…`): a project's credentials for CI. The token is returned once; only its hash is kept. */
import type { Kysely, Selectable } from 'kysely'
import { newId, nowIso } from '../../ids.js'
import { hashToken, issueToken } from '../../tokens.js'
import type { Database, DeployKeysTable } from '../schema.js'

export type DeployKeyRow = Selectable<DeployKeysTable>

/** What the API shows of a key: never its hash. */
export interface DeployKeySummary {
  id: string
  name: string
  prefix: string
  createdAt: string
  lastUsedAt: string | null
}

export const summarizeDeployKey = (row: DeployKeyRow): DeployKeySummary => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
})

export function deployKeysRepository(db: Kysely<Database>) {
  return {
    /** The token is returned once; only its hash and a short display prefix are kept. */
    async create(projectId: string, name: string): Promise<{ deployKey: DeployKeySummary; token: string }> {
      const { token, hash } = issueToken('deployKey')
      const row: DeployKeyRow = {
        id: newId('key'),
        project_id: projectId,
        name,
        token_hash: hash,
        prefix: token.slice(0, 10),
        created_at: nowIso(),
        last_used_at: null,
        revoked_at: null,
      }
      await db.insertInto('deploy_keys').values(row).execute()
      return { deployKey: summarizeDeployKey(row), token }
    },

    listActive: (projectId: string): Promise<DeployKeyRow[]> =>
      db
        .selectFrom('deploy_keys')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),

    findActiveByToken: (token: string): Promise<DeployKeyRow | undefined> =>
      db
        .selectFrom('deploy_keys')
        .selectAll()
        .where('token_hash', '=', hashToken(token))
        .where('revoked_at', 'is', null)
        .executeTakeFirst(),

    /** True when a key of that project was revoked now. */
    async revoke(projectId: string, keyId: string): Promise<boolean> {
      const result = await db
        .updateTable('deploy_keys')
        .set({ revoked_at: nowIso() })
        .where('id', '=', keyId)
        .where('project_id', '=', projectId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    async touch(keyId: string): Promise<void> {
      await db.updateTable('deploy_keys').set({ last_used_at: nowIso() }).where('id', '=', keyId).execute()
    },
  }
}
