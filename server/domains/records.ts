/**
 * The DNS records a custom domain needs: an ownership TXT record holding the claim's own random value,
 * and a routing record that sends the host to this service (a CNAME, or A/AAAA for an apex).
 */
import { isApexDomain } from '../../lib/apex-domain.js'
import type { DomainConfig } from './settings.js'

export type RecordPurpose = 'ownership' | 'routing'

/** The last check's finding for one record. */
export type RecordCheck =
  | 'unchecked'
  | 'ok'
  | 'missing'
  | 'wrong_value'
  | 'points_elsewhere'
  | 'timed_out'
  | 'lookup_failed'

export interface DnsRecord {
  type: 'TXT' | 'CNAME' | 'A' | 'AAAA'
  name: string
  value: string
  purpose: RecordPurpose
  /** When to create it: `always`, or only for the kind of name it fits. */
  use: 'always' | 'subdomain' | 'apex'
  status: RecordCheck
}

export const challengeLabel = '_docs-challenge'
export const challengeName = (hostname: string): string => `${challengeLabel}.${hostname}`

/** The base domain as DNS knows it: without the port a local setup may give it. */
export const baseHostOf = (baseDomain: string): string => baseDomain.replace(/:\d+$/, '').toLowerCase()

/** `{slug}.{base}`: where a subdomain's CNAME points. */
export const cnameTarget = (slug: string, baseDomain: string): string => `${slug}.${baseHostOf(baseDomain)}`

export function domainRecords(
  domain: { hostname: string; challenge: string },
  slug: string,
  config: { baseDomain: string; domains: Pick<DomainConfig, 'apexAddresses'> },
  checks: Partial<Record<RecordPurpose, RecordCheck>>,
): DnsRecord[] {
  const routing = checks.routing ?? 'unchecked'
  const apex = config.domains.apexAddresses
  // An apex takes no CNAME: with addresses to point at, only A/AAAA are offered. Without any, the
  // CNAME's target is what an ALIAS record or CNAME flattening at the DNS provider points at.
  const knownApex = isApexDomain(domain.hostname) && apex.length > 0
  const records: DnsRecord[] = [
    {
      type: 'TXT',
      name: challengeName(domain.hostname),
      value: domain.challenge,
      purpose: 'ownership',
      use: 'always',
      status: checks.ownership ?? 'unchecked',
    },
    {
      type: 'CNAME',
      name: domain.hostname,
      value: cnameTarget(slug, config.baseDomain),
      purpose: 'routing',
      use: apex.length > 0 ? 'subdomain' : 'always',
      status: routing,
    },
  ]
  if (knownApex) records.pop()
  for (const address of apex)
    records.push({
      type: address.includes(':') ? 'AAAA' : 'A',
      name: domain.hostname,
      value: address,
      purpose: 'routing',
      use: knownApex ? 'always' : 'apex',
      status: routing,
    })
  return records
}
