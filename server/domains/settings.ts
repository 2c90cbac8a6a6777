/**
 * Custom-domain settings: where DNS questions go, how long one may take, how often verified domains are
 * checked again, how long one keeps serving after its record disappears, and how long and how many
 * unverified claims a user may hold. They join the server's settings table (server/config.ts), so each
 * is a flag and an environment variable.
 */
import { isIP } from 'node:net'
import { ConfigError } from '../config-error.js'

export interface DomainConfig {
  /** `host` or `host:port` of the DNS server to ask; `undefined` uses the system's resolvers. */
  dnsResolver: string | undefined
  /** Milliseconds one DNS lookup may take before it counts as timed out. */
  dnsTimeoutMs: number
  /** Seconds between background checks of a domain; 0 turns the background checks off. */
  recheckSeconds: number
  /** Seconds a verified domain keeps serving after its records stop checking out. */
  graceSeconds: number
  /** Addresses an apex domain may point at with A/AAAA records (the proxy or CDN in front). */
  apexAddresses: string[]
  /** Days an unverified claim lives before it expires. */
  pendingDays: number
  /** Unverified claims one user may hold at once, over all their projects. */
  pendingPerUser: number
}

export const domainSettings = {
  dnsResolver: {
    flag: 'dns-resolver',
    env: 'DOCS_DNS_RESOLVER',
    description: 'DNS server for domain checks, ip or ip:port (default: the system resolvers)',
    default: undefined,
  },
  dnsTimeoutMs: {
    flag: 'dns-timeout',
    env: 'DOCS_DNS_TIMEOUT',
    description: 'milliseconds a DNS lookup may take',
    default: '3000',
  },
  domainRecheckSeconds: {
    flag: 'domain-recheck',
    env: 'DOCS_DOMAIN_RECHECK',
    description: 'seconds between background checks of each custom domain; 0 turns them off',
    default: '3600',
  },
  domainGraceSeconds: {
    flag: 'domain-grace',
    env: 'DOCS_DOMAIN_GRACE',
    description: 'seconds a domain keeps serving after its DNS records stop checking out',
    default: String(7 * 24 * 3600),
  },
  apexAddresses: {
    flag: 'apex-addresses',
    env: 'DOCS_APEX_ADDRESSES',
    description: 'comma-separated IPv4/IPv6 addresses an apex domain points at with A/AAAA',
    default: undefined,
  },
  domainPendingDays: {
    flag: 'domain-pending-days',
    env: 'DOCS_DOMAIN_PENDING_DAYS',
    description: 'days an unverified custom domain claim lives before it expires',
    default: '7',
  },
  domainPendingLimit: {
    flag: 'domain-pending-limit',
    env: 'DOCS_DOMAIN_PENDING_LIMIT',
    description: 'unverified custom domain claims one user may hold at once',
    default: '20',
  },
} as const

export type DomainSettingName = keyof typeof domainSettings

const where = (name: DomainSettingName): string =>
  `--${domainSettings[name].flag} / ${domainSettings[name].env}`

/** `1.1.1.1`, `127.0.0.1:5353`, `[::1]:53` or `::1`: what `dns.Resolver#setServers` accepts. */
function resolverAddress(value: string): boolean {
  if (isIP(value) !== 0) return true
  const bracketed = /^\[([^\]]+)\]:(\d{1,5})$/.exec(value)
  if (bracketed) return isIP(bracketed[1] ?? '') === 6 && Number(bracketed[2]) <= 65535
  const withPort = /^([^:]+):(\d{1,5})$/.exec(value)
  return withPort !== null && isIP(withPort[1] ?? '') === 4 && Number(withPort[2]) <= 65535
}

/** Reads and checks the domain settings; `raw` gives a setting's flag, env or default value. */
export function readDomainConfig(raw: (name: DomainSettingName) => string | undefined): DomainConfig {
  const integer = (name: DomainSettingName, min: number, max: number): number => {
    const text = raw(name)?.trim() ?? ''
    const number = Number(text)
    if (!/^\d+$/.test(text) || number < min || number > max)
      throw new ConfigError(`${where(name)}: expected a whole number from ${min} to ${max}, got "${text}"`)
    return number
  }
  const dnsResolver = raw('dnsResolver')?.trim() || undefined
  if (dnsResolver !== undefined && !resolverAddress(dnsResolver))
    throw new ConfigError(
      `${where('dnsResolver')}: expected an IP address with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53), got "${dnsResolver}"`,
    )
  const apexAddresses = (raw('apexAddresses') ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address !== '')
  for (const address of apexAddresses)
    if (isIP(address) === 0)
      throw new ConfigError(`${where('apexAddresses')}: "${address}" is not an IPv4 or IPv6 address`)
  return {
    dnsResolver,
    dnsTimeoutMs: integer('dnsTimeoutMs', 50, 60_000),
    recheckSeconds: integer('domainRecheckSeconds', 0, 30 * 24 * 3600),
    graceSeconds: integer('domainGraceSeconds', 0, 365 * 24 * 3600),
    apexAddresses,
    pendingDays: integer('domainPendingDays', 1, 365),
    pendingPerUser: integer('domainPendingLimit', 1, 100_000),
  }
}
