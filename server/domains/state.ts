/**
 * What a DNS check does to a domain, as one pure function of the row, the finding and the time:
 * - all records in place → `verified` (serving);
 * - a verified domain that stops checking out keeps serving for the grace period, showing why, and
 *   then becomes `failed` (not serving);
 * - an unverified claim that fails is `failed` with the reason; `--domain-pending-days` after it became
 *   unverified it is `expired`;
 * - an unverified claim never holds the name: several projects may claim one (hostname, prefix), and
 *   the first whose own record checks out takes it, expiring the others (`taken_over`).
 */
import type { DomainCheckUpdate, DomainRow } from '../db/repositories/domains.js'
import type { DnsCheckResult } from './dns-check.js'
import { challengeName, cnameTarget } from './records.js'

const dayMs = 24 * 3600 * 1000

export type FailureReason =
  | 'record_missing'
  | 'wrong_value'
  | 'points_elsewhere'
  | 'lookup_timed_out'
  | 'lookup_failed'
  | 'expired'
  | 'taken_over'
  | 'claimed_elsewhere'

/** The first failing record decides the reason; the message names every problem and what to do. */
export function describeFailure(
  domain: Pick<DomainRow, 'hostname' | 'challenge'>,
  slug: string,
  baseDomain: string,
  result: DnsCheckResult,
): { reason: FailureReason; message: string } | undefined {
  const txtName = challengeName(domain.hostname)
  const target = cnameTarget(slug, baseDomain)
  const problems: { reason: FailureReason; message: string }[] = []
  switch (result.ownership) {
    case 'missing':
      problems.push({
        reason: 'record_missing',
        message: `no TXT record at ${txtName}; create one with the value ${domain.challenge}`,
      })
      break
    case 'wrong_value':
      problems.push({
        reason: 'wrong_value',
        message: `the TXT record at ${txtName} holds ${result.foundTxt.map((value) => `"${value}"`).join(', ')}, not this domain's value ${domain.challenge}`,
      })
      break
    case 'timed_out':
      problems.push({ reason: 'lookup_timed_out', message: `the DNS lookup of ${txtName} timed out` })
      break
    case 'lookup_failed':
      problems.push({ reason: 'lookup_failed', message: `the DNS lookup of ${txtName} failed` })
      break
  }
  switch (result.routing) {
    case 'missing':
      problems.push({
        reason: 'record_missing',
        message: `${domain.hostname} has no CNAME record; point it at ${target}`,
      })
      break
    case 'points_elsewhere':
      problems.push({
        reason: 'points_elsewhere',
        message: `${domain.hostname} points at ${result.foundRouting.join(', ')}, not at ${target}`,
      })
      break
    case 'timed_out':
      problems.push({ reason: 'lookup_timed_out', message: `the DNS lookup of ${domain.hostname} timed out` })
      break
    case 'lookup_failed':
      problems.push({ reason: 'lookup_failed', message: `the DNS lookup of ${domain.hostname} failed` })
      break
  }
  const first = problems[0]
  if (!first) return undefined
  const message = problems.map((problem) => problem.message).join('; ')
  return { reason: first.reason, message: `${message.charAt(0).toUpperCase()}${message.slice(1)}.` }
}

export function applyCheck(
  row: DomainRow,
  result: DnsCheckResult,
  failure: { reason: FailureReason; message: string } | undefined,
  now: Date,
  graceMs: number,
): DomainCheckUpdate {
  const at = now.toISOString()
  const record_checks = JSON.stringify({ ownership: result.ownership, routing: result.routing })
  if (!failure)
    return {
      status: 'verified',
      failure_reason: null,
      failure_message: null,
      record_checks,
      last_checked_at: at,
      verified_at: row.status === 'verified' && row.verified_at ? row.verified_at : at,
      failing_since: null,
      unverified_since: row.unverified_since,
    }
  const failed = {
    failure_reason: failure.reason,
    failure_message: failure.message,
    record_checks,
    last_checked_at: at,
    verified_at: row.verified_at,
  }
  if (row.status === 'verified') {
    const failingSince = row.failing_since ?? at
    if (now.getTime() - Date.parse(failingSince) < graceMs)
      return {
        ...failed,
        status: 'verified',
        failing_since: failingSince,
        unverified_since: row.unverified_since,
      }
    return { ...failed, status: 'failed', failing_since: null, unverified_since: at }
  }
  return { ...failed, status: 'failed', failing_since: null, unverified_since: row.unverified_since }
}

/** An unverified claim past its `pendingDays`, as an update; `undefined` while it still has time. */
export function expiryOf(row: DomainRow, now: Date, pendingDays: number): DomainCheckUpdate | undefined {
  if (row.status !== 'pending' && row.status !== 'failed') return undefined
  if (now.getTime() - Date.parse(row.unverified_since) < pendingDays * dayMs) return undefined
  return {
    status: 'expired',
    failure_reason: 'expired',
    failure_message: `Not verified within ${pendingDays} ${pendingDays === 1 ? 'day' : 'days'} of being added; remove this domain and add it again for a new record value.`,
    record_checks: row.record_checks,
    last_checked_at: row.last_checked_at ?? now.toISOString(),
    verified_at: row.verified_at,
    failing_since: null,
    unverified_since: row.unverified_since,
  }
}

/** What an unverified claim becomes when another project proves the same (hostname, prefix) in DNS. */
export function takenOver(row: DomainRow, now: Date): DomainCheckUpdate {
  const where = `${row.hostname}${row.path_prefix || '/'}`
  return {
    status: 'expired',
    failure_reason: 'taken_over',
    failure_message: `Another project proved ownership of ${where} in DNS at ${now.toISOString()} and serves it now; this claim was never verified. Remove it, or add the name again for a new record value if the domain is yours.`,
    record_checks: row.record_checks,
    last_checked_at: row.last_checked_at ?? now.toISOString(),
    verified_at: row.verified_at,
    failing_since: null,
    unverified_since: row.unverified_since,
  }
}

/**
 * An unverified claim whose records check out while another project's claim of the same name is
 * verified: it stays unverified, saying why, until that claim stops serving (after its grace period).
 */
export function claimedElsewhere(row: DomainRow, update: DomainCheckUpdate): DomainCheckUpdate {
  const where = `${row.hostname}${row.path_prefix || '/'}`
  return {
    ...update,
    status: 'failed',
    failure_reason: 'claimed_elsewhere',
    failure_message: `The records check out, but another project's verified claim serves ${where}. This claim takes over at a check after that one stops serving (its records gone past its grace period).`,
    verified_at: row.verified_at,
    failing_since: null,
    unverified_since: row.unverified_since,
  }
}

/** When a verified domain in trouble stops serving, or `null`. */
export const graceEndsAt = (row: DomainRow, graceMs: number): string | null =>
  row.status === 'verified' && row.failing_since
    ? new Date(Date.parse(row.failing_since) + graceMs).toISOString()
    : null

/** When an unverified claim expires, or `null`. */
export const expiresAt = (row: DomainRow, pendingDays: number): string | null =>
  row.status === 'pending' || row.status === 'failed'
    ? new Date(Date.parse(row.unverified_since) + pendingDays * dayMs).toISOString()
    : null
