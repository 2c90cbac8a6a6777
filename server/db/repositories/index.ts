/** Every repository over one Kysely instance; app.ts decorates the Fastify instance with this as `repos`. */
import type { Kysely } from 'kysely'
import type { Database } from '../schema.js'
import { accessTokensRepository } from './access-tokens.js'
import { analyticsRepository } from './analytics.js'
import { buildJobsRepository } from './build-jobs.js'
import { cdnPurgesRepository } from './cdn-purges.js'
import { changeReportsRepository } from './change-reports.js'
import { dashboardSessionsRepository } from './dashboard-sessions.js'
import { deployKeysRepository } from './deploy-keys.js'
import { deploymentsRepository } from './deployments.js'
import { domainsRepository } from './domains.js'
import { gitRepository } from './git.js'
import { healthRepository } from './health.js'
import { insightsRepository } from './insights.js'
import { projectsRepository } from './projects.js'
import { retentionRepository } from './retention.js'
import { sharedSecretsRepository } from './shared-secrets.js'
import { signInsRepository } from './sign-ins.js'
import { siteChangesRepository } from './site-changes.js'
import { usersRepository } from './users.js'

export function createRepositories(db: Kysely<Database>) {
  return {
    users: usersRepository(db),
    accessTokens: accessTokensRepository(db),
    signIns: signInsRepository(db),
    projects: projectsRepository(db),
    deployments: deploymentsRepository(db),
    deployKeys: deployKeysRepository(db),
    analytics: analyticsRepository(db),
    health: healthRepository(db),
    domains: domainsRepository(db),
    buildJobs: buildJobsRepository(db),
    cdnPurges: cdnPurgesRepository(db),
    changeReports: changeReportsRepository(db),
    siteChanges: siteChangesRepository(db),
    retention: retentionRepository(db),
    git: gitRepository(db),
    dashboardSessions: dashboardSessionsRepository(db),
    sharedSecrets: sharedSecretsRepository(db),
    insights: insightsRepository(db),
  }
}

export type Repositories = ReturnType<typeof createRepositories>
