/**
 * Whether a host name is the apex of its zone (`example.com`, `example.co.uk`), where DNS allows no
 * CNAME: the apex holds the zone's SOA and NS records, and a CNAME may not share a name with others.
 * Without the public suffix list this knows the common shapes: two labels, or three under a
 * two-letter country code whose second level is a registry's (`co.uk`, `com.au`, `ac.jp`…).
 */

/** Second-level labels registries use under a country code: `co.uk`, `com.br`, `org.nz`, `ac.jp`. */
const REGISTRY_SECOND_LEVELS = new Set([
  'co',
  'com',
  'org',
  'net',
  'ac',
  'gov',
  'edu',
  'ne',
  'or',
  'go',
  'gob',
])

export function isApexDomain(hostname: string): boolean {
  const labels = hostname.toLowerCase().replace(/\.$/, '').split('.')
  if (labels.length === 2) return true
  if (labels.length !== 3) return false
  const [, second, top] = labels as [string, string, string]
  return top.length === 2 && REGISTRY_SECOND_LEVELS.has(second)
}
