/**
 * The shape of the custom-domain settings: where DNS questions go, how long one may take, how often
 * verified domains are checked again, how long one keeps serving after its record disappears, and how
 * long and how many unverified claims a user may hold. Their flags, variables, defaults and checks are
 * in the settings table (server/settings/table.ts); server/config.ts fills this shape.
 */
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
