/**
 * How `docsctl domains` prints: a domain as `host/prefix`, and DNS records as an aligned table whose
 * columns a person copies straight into a DNS console.
 */
import { toASCII } from 'tr46'
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

const useNote: Record<DnsRecord['use'], string> = {
  always: '',
  subdomain: 'for a subdomain',
  apex: 'for an apex, instead of the CNAME',
}

/** The records to create; with `withStatus`, what the last check found for each. */
export function recordsTable(records: readonly DnsRecord[], withStatus: boolean): string {
  const withNote = records.some((record) => record.use !== 'always')
  const header = ['TYPE', 'NAME', 'VALUE', ...(withStatus ? ['CHECK'] : []), ...(withNote ? ['NOTE'] : [])]
  const rows = records.map((record) => [
    record.type,
    record.name,
    record.value,
    ...(withStatus ? [record.status.replace(/_/g, ' ')] : []),
    ...(withNote ? [useNote[record.use]] : []),
  ])
  return table([header, ...rows])
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
  const hostname = toASCII(host) ?? host.toLowerCase()
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
