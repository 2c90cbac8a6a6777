/**
 * How `docsctl domains` prints: a domain as `host/prefix`, and DNS records as an aligned table whose
 * columns a person copies straight into a DNS console.
 */
import { isApexDomain } from '../../lib/apex-domain.js'
import { lazyPackage } from '../../lib/lazy-package.js'
import type { ApiClient, DnsRecord, Domain, Project } from '../api.js'
import { CommandFailure } from '../auth/failure.js'

/** `docs.example.com` or `example.com/docs`. */
export const domainAddress = (domain: Pick<Domain, 'hostname' | 'pathPrefix'>): string =>
  domain.pathPrefix === '/' ? domain.hostname : `${domain.hostname}${domain.pathPrefix}`

/** Rows of cells → lines with each column padded to its widest cell, two spaces apart. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = []
  for (const row of rows)
    for (const [column, cell] of row.entries()) widths[column] = Math.max(widths[column] ?? 0, cell.length)
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

/** Loaded when a domain is shown in its ASCII form. */
const tr46 = lazyPackage<typeof import('tr46')>('tr46')

const useNote: Record<DnsRecord['use'], string> = {
  always: '',
  subdomain: 'for a subdomain',
  apex: 'for an apex, instead of the CNAME',
}

/**
 * The records to create; with `withStatus`, what the last check found for each. At an apex, where
 * DNS allows no CNAME, a CNAME the server offers (it has no apex addresses) is shown as the ALIAS
 * record (or CNAME flattening) that does the same.
 */
export function recordsTable(records: readonly DnsRecord[], withStatus: boolean): string {
  const aliased = (record: DnsRecord) =>
    record.type === 'CNAME' && isApexDomain(record.name) && record.use === 'always'
  const withNote = records.some((record) => record.use !== 'always' || aliased(record))
  const header = ['TYPE', 'NAME', 'VALUE', ...(withStatus ? ['CHECK'] : []), ...(withNote ? ['NOTE'] : [])]
  const rows = records.map((record) => [
    aliased(record) ? 'ALIAS' : record.type,
    record.name,
    record.value,
    ...(withStatus ? [record.status.replace(/_/g, ' ')] : []),
    ...(withNote
      ? [
          aliased(record)
            ? 'or ANAME / CNAME flattening: a CNAME is not allowed at an apex'
            : useNote[record.use],
        ]
      : []),
  ])
  return table([header, ...rows])
}

/**
 * What to say under the records of an apex domain: none when the server gives A/AAAA addresses for
 * it; otherwise that DNS allows no CNAME there, what to use instead, and the setting that would give
 * A/AAAA records.
 */
export function apexAdvice(hostname: string, records: readonly DnsRecord[]): string | undefined {
  if (!isApexDomain(hostname) || records.some((record) => record.type === 'A' || record.type === 'AAAA'))
    return undefined
  const target = records.find((record) => record.type === 'CNAME')?.value ?? 'the site'
  return [
    `${hostname} is an apex domain, where DNS allows no CNAME. Point it at ${target} with your DNS`,
    "provider's ALIAS or ANAME record, or CNAME flattening (Cloudflare, DNSimple, Route 53 alias…), or",
    `serve the docs at a subdomain such as docs.${hostname} instead.`,
    'This server gives no addresses for A/AAAA records at an apex: its operator can list them with',
    '--apex-addresses (DOCS_APEX_ADDRESSES).',
  ].join('\n')
}

/**
 * The domain an argument names: its id (`dom_…`), or `host` / `host/prefix` (a `--path-prefix` flag
 * may give the prefix instead). Unicode host names match their IDNA form.
 */
export async function findDomain(
  client: ApiClient,
  project: Project,
  argument: string,
  pathPrefix: string | undefined,
): Promise<Domain> {
  const domains = await client.listDomains(project.id)
  if (argument.startsWith('dom_')) {
    const byId = domains.find((domain) => domain.id === argument)
    if (byId) return byId
    throw new CommandFailure(`No domain ${argument} in ${project.slug}. See \`docsctl domains list\`.`)
  }
  const slash = argument.indexOf('/')
  const host = (slash === -1 ? argument : argument.slice(0, slash)).replace(/\.$/, '')
  const hostname = tr46().toASCII(host) ?? host.toLowerCase()
  const prefix = pathPrefix ?? (slash === -1 ? undefined : argument.slice(slash))
  const matches = domains.filter(
    (domain) =>
      domain.hostname === hostname &&
      (prefix === undefined || domain.pathPrefix === (prefix.replace(/\/+$/, '') || '/')),
  )
  const [only] = matches
  if (only && matches.length === 1) return only
  if (matches.length > 1)
    throw new CommandFailure(
      `${hostname} has several domains in ${project.slug}: ${matches.map(domainAddress).join(', ')}. Name one, e.g. ${domainAddress(matches[1] ?? only!)}.`,
    )
  throw new CommandFailure(
    `No domain ${prefix ? `${hostname}${prefix}` : hostname} in ${project.slug}. See \`docsctl domains list\`.`,
  )
}
