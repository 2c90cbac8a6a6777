/** Domain rows → the API's Domain record (schemas/api/domains.ts). */
import { Domain, type Shape } from '../../schemas/api/index.js'
import type { ServerConfig } from '../config.js'
import type { DomainRow } from '../db/repositories/domains.js'
import type { ProjectRow } from '../db/repositories/projects.js'
import { domainRecords, type RecordCheck, type RecordPurpose } from './records.js'
import { expiresAt, graceEndsAt } from './state.js'

const recordChecksOf = (row: DomainRow): Partial<Record<RecordPurpose, RecordCheck>> =>
  JSON.parse(row.record_checks) as Partial<Record<RecordPurpose, RecordCheck>>

type DomainRecord = Shape<typeof Domain>
type FailureReason = NonNullable<DomainRecord['failure']>['reason']
const failureReasons: readonly string[] = Domain.properties.failure.properties.reason.enum
const isFailureReason = (reason: string): reason is FailureReason => failureReasons.includes(reason)

export function presentDomainRecords(config: ServerConfig, project: ProjectRow, row: DomainRow) {
  return domainRecords(row, project.slug, config, recordChecksOf(row))
}

export function presentDomain(config: ServerConfig, project: ProjectRow, row: DomainRow): DomainRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    hostname: row.hostname,
    pathPrefix: row.path_prefix === '' ? '/' : row.path_prefix,
    url: `https://${row.hostname}${row.path_prefix}/`,
    status: row.status,
    serving: row.status === 'verified',
    records: presentDomainRecords(config, project, row),
    failure:
      row.failure_reason && isFailureReason(row.failure_reason)
        ? { reason: row.failure_reason, message: row.failure_message ?? '' }
        : null,
    graceEndsAt: graceEndsAt(row, config.domains.graceSeconds * 1000),
    expiresAt: expiresAt(row, config.domains.pendingDays),
    createdAt: row.created_at,
    verifiedAt: row.verified_at,
    lastCheckedAt: row.last_checked_at,
  }
}
