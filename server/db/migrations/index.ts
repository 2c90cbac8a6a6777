/**
 * Every migration, in order, registered statically so the compiled server needs no folder scan.
 * Other areas append one import and one entry (keys sort in run order: `NNN_name`).
 */
import type { Migration, MigrationProvider } from 'kysely'
import * as core from './001_core.js'
import * as oauth from './002_oauth.js'
import * as analytics from './003_analytics.js'
import * as previewTokens from './004_preview_tokens.js'
import * as domains from './005_domains.js'
import * as buildJobs from './006_build_jobs.js'
import * as retention from './007_retention.js'
import * as git from './008_git.js'
import * as dashboardSessions from './009_dashboard_sessions.js'
import * as deploymentDiagnostics from './010_deployment_diagnostics.js'
import * as domainTakeover from './011_domain_takeover.js'
import * as replicaSharedSecrets from './012_replica_shared_secrets.js'
import * as cdnPurges from './013_cdn_purges.js'
import * as changeReports from './014_change_reports.js'
import * as insights from './015_insights.js'

export const migrations: Record<string, Migration> = {
  '001_core': core,
  '002_oauth': oauth,
  '003_analytics': analytics,
  '004_preview_tokens': previewTokens,
  '005_domains': domains,
  '006_build_jobs': buildJobs,
  '007_retention': retention,
  '008_git': git,
  '009_dashboard_sessions': dashboardSessions,
  '010_deployment_diagnostics': deploymentDiagnostics,
  '011_domain_takeover': domainTakeover,
  '012_replica_shared_secrets': replicaSharedSecrets,
  '013_cdn_purges': cdnPurges,
  '014_change_reports': changeReports,
  '015_insights': insights,
}

export class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations
  }
}
