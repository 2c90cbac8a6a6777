/**
 * Git connections, the webhook delivery queue and branch-alias previews. The queue is rows taken by a
 * conditional update (`queued` → `running`), so a delivery runs once; a row's delivery key is unique,
 * so the same delivery id is accepted once.
 */
import type { Kysely, Selectable } from 'kysely'
import { normaliseRepositoryUrl } from '../../git/repository.js'
import { newId, nowIso } from '../../ids.js'
import type {
  GitConnectionsTable,
  GitDeliveriesTable,
  GitDeliveryStatus,
  GitProvider,
} from '../migrations/008_git.js'
import type { GitPullRequestsTable } from '../migrations/014_change_reports.js'
import type { Database } from '../schema.js'

export type { GitProvider }

export type GitConnectionRow = Selectable<GitConnectionsTable>
export type GitDeliveryRow = Selectable<GitDeliveriesTable>
export type GitPullRequestRow = Selectable<GitPullRequestsTable>

export interface GitConnectionInput {
  provider: GitProvider
  repositoryUrl: string
  productionBranch: string
  docsDirectory: string | null
  previewBranches: string[]
  buildForkRequests?: boolean
}

export interface PushDelivery {
  deliveryKey: string
  projectId: string
  event: string
  branch: string
  commitSha: string
  commitMessage: string | null
  commitAuthor: string | null
  forced: boolean
  githubInstallationId: string | null
  /** A pull/merge request event: `branch` is then `pr-<number>`, so its events supersede each other only. */
  request?: { number: number; action: 'update' | 'close'; fromFork: boolean }
}

export function gitRepository(db: Kysely<Database>) {
  return {
    connectionOf: (projectId: string): Promise<GitConnectionRow | undefined> =>
      db.selectFrom('git_connections').selectAll().where('project_id', '=', projectId).executeTakeFirst(),

    /** Connections of a provider whose repository is one of `urls` (normalised: host case, `.git`, `/`). */
    async connectionsByRepository(
      provider: GitProvider,
      urls: readonly string[],
    ): Promise<GitConnectionRow[]> {
      const wanted = new Set(urls.map(normaliseRepositoryUrl))
      if (wanted.size === 0) return []
      const rows = await db
        .selectFrom('git_connections')
        .selectAll()
        .where('provider', '=', provider)
        .execute()
      return rows.filter((row) => wanted.has(normaliseRepositoryUrl(row.repository_url)))
    },

    connectionsOfProvider: (provider: GitProvider): Promise<GitConnectionRow[]> =>
      db.selectFrom('git_connections').selectAll().where('provider', '=', provider).execute(),

    async connect(projectId: string, input: GitConnectionInput): Promise<void> {
      const now = nowIso()
      const values = {
        provider: input.provider,
        repository_url: input.repositoryUrl,
        production_branch: input.productionBranch,
        docs_directory: input.docsDirectory,
        preview_branches: JSON.stringify(input.previewBranches),
        build_fork_requests: input.buildForkRequests ? 1 : 0,
        updated_at: now,
      }
      await db
        .insertInto('git_connections')
        .values({ project_id: projectId, ...values, github_installation_id: null, created_at: now })
        .onConflict((conflict) => conflict.column('project_id').doUpdateSet(values))
        .execute()
    },

    async setInstallation(projectId: string, installationId: string | null): Promise<void> {
      await db
        .updateTable('git_connections')
        .set({ github_installation_id: installationId })
        .where('project_id', '=', projectId)
        .execute()
    },

    /** Removes the connection; queued deliveries are skipped, branch previews stop resolving. */
    async disconnect(projectId: string): Promise<boolean> {
      const removed = await db.deleteFrom('git_connections').where('project_id', '=', projectId).execute()
      await db
        .updateTable('git_deliveries')
        .set({ status: 'skipped', detail: 'The Git connection was removed', updated_at: nowIso() })
        .where('project_id', '=', projectId)
        .where('status', '=', 'queued')
        .execute()
      await db.deleteFrom('git_branch_previews').where('project_id', '=', projectId).execute()
      return removed.some((result) => Number(result.numDeletedRows) > 0)
    },

    /** Queue a push; false when its delivery key was seen before (a replay or a redelivery). */
    async enqueue(push: PushDelivery): Promise<boolean> {
      const now = nowIso()
      const result = await db
        .insertInto('git_deliveries')
        .values({
          id: newId('gdl'),
          delivery_key: push.deliveryKey,
          project_id: push.projectId,
          event: push.event,
          branch: push.branch,
          commit_sha: push.commitSha,
          commit_message: push.commitMessage,
          commit_author: push.commitAuthor,
          forced: push.forced ? 1 : 0,
          status: 'queued',
          deployment_id: null,
          detail: null,
          github_installation_id: push.githubInstallationId,
          request_number: push.request?.number ?? null,
          request_action: push.request?.action ?? null,
          from_fork: push.request?.fromFork ? 1 : 0,
          lease_until: null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((conflict) => conflict.column('delivery_key').doNothing())
        .returning('id')
        .executeTakeFirst()
      return result !== undefined
    },

    /** Whether a delivery key was already taken (for refusing a replay before any other work). */
    async seen(deliveryKey: string): Promise<boolean> {
      const row = await db
        .selectFrom('git_deliveries')
        .select('id')
        .where('delivery_key', '=', deliveryKey)
        .executeTakeFirst()
      return row !== undefined
    },

    /**
     * The next delivery to run: the newest queued one of the oldest waiting branch. Older queued pushes
     * of that branch are superseded first (the newest commit of a branch wins). Taken by a conditional
     * update, so two loops never run one delivery.
     */
    async takeNext(leaseMs: number): Promise<GitDeliveryRow | undefined> {
      for (;;) {
        const oldest = await db
          .selectFrom('git_deliveries')
          .select(['project_id', 'branch'])
          .where('status', '=', 'queued')
          .orderBy('created_at')
          .orderBy('id')
          .limit(1)
          .executeTakeFirst()
        if (!oldest) return undefined
        const newest = await db
          .selectFrom('git_deliveries')
          .selectAll()
          .where('status', '=', 'queued')
          .where('project_id', '=', oldest.project_id)
          .where('branch', '=', oldest.branch)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirstOrThrow()
        const now = nowIso()
        await db
          .updateTable('git_deliveries')
          .set({ status: 'superseded', detail: `Superseded by ${newest.commit_sha}`, updated_at: now })
          .where('status', '=', 'queued')
          .where('project_id', '=', newest.project_id)
          .where('branch', '=', newest.branch)
          .where('id', '<>', newest.id)
          .execute()
        const leaseUntil = new Date(Date.now() + leaseMs).toISOString()
        const taken = await db
          .updateTable('git_deliveries')
          .set({ status: 'running', lease_until: leaseUntil, updated_at: now })
          .where('id', '=', newest.id)
          .where('status', '=', 'queued')
          .executeTakeFirst()
        if (Number(taken.numUpdatedRows) === 1)
          return { ...newest, status: 'running', lease_until: leaseUntil, updated_at: now }
      }
    },

    async finish(
      id: string,
      outcome: { status: GitDeliveryStatus; deploymentId?: string | null; detail?: string | null },
    ): Promise<void> {
      await db
        .updateTable('git_deliveries')
        .set({
          status: outcome.status,
          lease_until: null,
          detail: outcome.detail ?? null,
          ...(outcome.deploymentId !== undefined ? { deployment_id: outcome.deploymentId } : {}),
          updated_at: nowIso(),
        })
        .where('id', '=', id)
        .execute()
    },

    /**
     * A delivery of a repository that deploys to another project: kept only as its key (so a replay
     * stays refused), with nothing of the push left, and never listed to the project's owner.
     */
    async forget(id: string): Promise<void> {
      await db
        .updateTable('git_deliveries')
        .set({
          status: 'foreign',
          branch: '',
          commit_sha: '',
          commit_message: null,
          commit_author: null,
          detail: null,
          updated_at: nowIso(),
        })
        .where('id', '=', id)
        .execute()
    },

    async setDeployment(id: string, deploymentId: string): Promise<void> {
      await db
        .updateTable('git_deliveries')
        .set({ deployment_id: deploymentId, updated_at: nowIso() })
        .where('id', '=', id)
        .execute()
    },

    /**
     * Deliveries a stopped runner left running go back in the queue, to run again from the start:
     * every one (`all`, a server alone on its SQLite file), else those whose lease has ended (other
     * replicas of a PostgreSQL deployment may still be running theirs).
     */
    async requeueInterrupted(options: { all: boolean }): Promise<number> {
      let query = db
        .updateTable('git_deliveries')
        .set({ status: 'queued', lease_until: null, updated_at: nowIso() })
        .where('status', '=', 'running')
      if (!options.all)
        query = query.where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', nowIso())]))
      const result = await query.executeTakeFirst()
      return Number(result.numUpdatedRows)
    },

    recentDeliveries: (projectId: string, limit: number): Promise<GitDeliveryRow[]> =>
      db
        .selectFrom('git_deliveries')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('status', '<>', 'foreign')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute(),

    /** The ready deployment a branch-alias preview host names. */
    async branchPreview(projectId: string, branchSlug: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('git_branch_previews')
        .select('deployment_id')
        .where('project_id', '=', projectId)
        .where('branch_slug', '=', branchSlug)
        .executeTakeFirst()
      return row?.deployment_id
    },

    async setBranchPreview(
      projectId: string,
      branch: string,
      branchSlug: string,
      deploymentId: string,
    ): Promise<void> {
      const now = nowIso()
      await db
        .insertInto('git_branch_previews')
        .values({
          project_id: projectId,
          branch_slug: branchSlug,
          branch,
          deployment_id: deploymentId,
          updated_at: now,
        })
        .onConflict((conflict) =>
          conflict
            .columns(['project_id', 'branch_slug'])
            .doUpdateSet({ branch, deployment_id: deploymentId, updated_at: now }),
        )
        .execute()
    },

    pullRequest: (projectId: string, number: number): Promise<GitPullRequestRow | undefined> =>
      db
        .selectFrom('git_pull_requests')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('number', '=', number)
        .executeTakeFirst(),

    /** The request as its newest event tells it; the comment and check run it has are kept. */
    async recordPullRequest(input: {
      projectId: string
      number: number
      state: 'open' | 'closed'
      headBranch: string
      headSha: string
      fromFork: boolean
    }): Promise<void> {
      const now = nowIso()
      const values = {
        state: input.state,
        head_branch: input.headBranch,
        head_sha: input.headSha,
        from_fork: input.fromFork ? 1 : 0,
        updated_at: now,
      }
      await db
        .insertInto('git_pull_requests')
        .values({
          project_id: input.projectId,
          number: input.number,
          ...values,
          deployment_id: null,
          comment_id: null,
          check_run_id: null,
          check_run_sha: null,
        })
        .onConflict((conflict) => conflict.columns(['project_id', 'number']).doUpdateSet(values))
        .execute()
    },

    async updatePullRequest(
      projectId: string,
      number: number,
      fields: Partial<
        Pick<GitPullRequestRow, 'deployment_id' | 'comment_id' | 'check_run_id' | 'check_run_sha'>
      >,
    ): Promise<void> {
      await db
        .updateTable('git_pull_requests')
        .set({ ...fields, updated_at: nowIso() })
        .where('project_id', '=', projectId)
        .where('number', '=', number)
        .execute()
    },

    async removeBranchPreview(projectId: string, branchSlug: string): Promise<void> {
      await db
        .deleteFrom('git_branch_previews')
        .where('project_id', '=', projectId)
        .where('branch_slug', '=', branchSlug)
        .execute()
    },
  }
}
