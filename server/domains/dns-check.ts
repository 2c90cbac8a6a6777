/**
 * Ask DNS whether a domain's records are in place. Node's resolver (c-ares), pointed at the configured
 * server, one try per question and a hard deadline, so a check never hangs. A fresh resolver per check
 * keeps c-ares' answer cache from hiding a record that was just added or removed.
 */
import { Resolver } from 'node:dns/promises'
import { isIP } from 'node:net'
import { baseHostOf, challengeName, type RecordCheck } from './records.js'
import type { DomainConfig } from './settings.js'

export interface DnsCheckResult {
  ownership: RecordCheck
  routing: RecordCheck
  /** What DNS answered, for the failure message. */
  foundTxt: string[]
  foundRouting: string[]
}

const missingCodes = new Set(['ENODATA', 'ENOTFOUND', 'NOTFOUND', 'NODATA'])
const timeoutCodes = new Set(['ETIMEOUT', 'ECANCELLED', 'TIMEOUT', 'CANCELLED'])

type Lookup<T> = { answer: T } | { check: RecordCheck }

async function ask<T>(question: () => Promise<T>): Promise<Lookup<T>> {
  try {
    return { answer: await question() }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? ''
    if (missingCodes.has(code)) return { check: 'missing' }
    if (timeoutCodes.has(code)) return { check: 'timed_out' }
    return { check: 'lookup_failed' }
  }
}

const normaliseName = (name: string): string => name.toLowerCase().replace(/\.$/, '')

export async function checkDomainDns(
  domain: { hostname: string; challenge: string },
  config: { baseDomain: string; domains: DomainConfig },
): Promise<DnsCheckResult> {
  const { dnsResolver, dnsTimeoutMs, apexAddresses } = config.domains
  const resolver = new Resolver({ timeout: dnsTimeoutMs, tries: 1 })
  if (dnsResolver) resolver.setServers([dnsResolver])
  // c-ares may retry on other servers or over TCP; past this deadline every pending question is cancelled.
  const deadline = setTimeout(() => resolver.cancel(), dnsTimeoutMs * 3)
  try {
    const [txt, routing] = await Promise.all([
      ask(() => resolver.resolveTxt(challengeName(domain.hostname))),
      checkRouting(resolver, domain.hostname, baseHostOf(config.baseDomain), apexAddresses),
    ])
    const foundTxt = 'answer' in txt ? txt.answer.map((chunks) => chunks.join('')) : []
    const ownership: RecordCheck =
      'check' in txt ? txt.check : foundTxt.includes(domain.challenge) ? 'ok' : 'wrong_value'
    return { ownership, routing: routing.check, foundTxt, foundRouting: routing.found }
  } finally {
    clearTimeout(deadline)
  }
}

/**
 * A CNAME to this service's base domain (any name under it), else A/AAAA among the apex addresses;
 * without apex addresses, A/AAAA among the base domain's own (what an ALIAS record or CNAME
 * flattening at the apex answers).
 */
async function checkRouting(
  resolver: Resolver,
  hostname: string,
  baseHost: string,
  apexAddresses: readonly string[],
): Promise<{ check: RecordCheck; found: string[] }> {
  const cname = await ask(() => resolver.resolveCname(hostname))
  if ('answer' in cname) {
    const found = cname.answer.map(normaliseName)
    const ours = found.every((target) => target === baseHost || target.endsWith(`.${baseHost}`))
    return { check: ours && found.length > 0 ? 'ok' : 'points_elsewhere', found }
  }
  if (cname.check !== 'missing') return { check: cname.check, found: [] }
  // No CNAME: an apex (or a name with plain address records).
  const [v4, v6] = await Promise.all([
    ask(() => resolver.resolve4(hostname)),
    ask(() => resolver.resolve6(hostname)),
  ])
  for (const lookup of [v4, v6])
    if ('check' in lookup && lookup.check !== 'missing') return { check: lookup.check, found: [] }
  const found = [v4, v6].flatMap((lookup) => ('answer' in lookup ? lookup.answer : []))
  if (found.length === 0) return { check: 'missing', found }
  let targets = apexAddresses
  if (targets.length === 0) {
    const [base4, base6] = await Promise.all([
      ask(() => resolver.resolve4(baseHost)),
      ask(() => resolver.resolve6(baseHost)),
    ])
    targets = [base4, base6].flatMap((lookup) => ('answer' in lookup ? lookup.answer : []))
  }
  const allowed = new Set(targets.map(canonicalAddress))
  const ours = found.every((address) => allowed.has(canonicalAddress(address)))
  return { check: ours ? 'ok' : 'points_elsewhere', found }
}

/** IPv6 addresses have many spellings; compare them in one. */
function canonicalAddress(address: string): string {
  if (isIP(address) !== 6) return address
  return new URL(`http://[${address}]/`).hostname
}
