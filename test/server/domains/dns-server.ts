/**
 * A real DNS server on loopback for tests (dns2 over UDP): it answers TXT, CNAME, A and AAAA from a
 * table the test edits, NXDOMAIN for unknown names, and never answers names told to stay silent, so
 * the resolver's timeout is exercised for real.
 */
import dns2 from 'dns2'
import type { DomainRow } from '../../../server/db/repositories/domains.js'
import type { Repositories } from '../../../server/db/repositories/index.js'

type RecordType = 'TXT' | 'CNAME' | 'A' | 'AAAA'

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for `--dns-resolver`. */
  address: string
  set(name: string, type: RecordType, values: string[]): void
  remove(name: string, type: RecordType): void
  /** Questions about this name get no answer at all. */
  silence(name: string): void
  /** How many questions the server has been asked. */
  readonly questions: number
  close(): Promise<void>
}

export async function startTestDnsServer(): Promise<TestDnsServer> {
  const { Packet } = dns2
  const records = new Map<string, string[]>()
  const silent = new Set<string>()
  let questions = 0
  const key = (name: string, type: number) => `${name.toLowerCase()} ${type}`
  const server = dns2.createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request)
    const [question] = request.questions
    if (!question) return
    questions += 1
    const name = question.name.toLowerCase()
    if (silent.has(name)) return
    const values = records.get(key(name, question.type)) ?? []
    const known = [...records.keys()].some((entry) => entry.startsWith(`${name} `))
    for (const value of values) {
      const field =
        question.type === Packet.TYPE.TXT
          ? { data: value }
          : question.type === Packet.TYPE.CNAME
            ? { domain: value }
            : { address: value }
      response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 1, ...field }))
    }
    // A name with no records at all does not exist (NXDOMAIN); a known name without this type is NODATA.
    if (!known) response.header.rcode = 3
    send(response)
  })
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve))
  const { port } = server.address()
  const types: Record<RecordType, number> = {
    TXT: Packet.TYPE.TXT,
    CNAME: Packet.TYPE.CNAME,
    A: Packet.TYPE.A,
    AAAA: Packet.TYPE.AAAA,
  }
  return {
    address: `127.0.0.1:${port}`,
    set: (name, type, values) => records.set(key(name, types[type]), values),
    remove: (name, type) => records.delete(key(name, types[type])),
    silence: (name) => silent.add(name.toLowerCase()),
    get questions() {
      return questions
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** Mark a claim verified straight in the database, for tests about serving rather than DNS. */
export async function markVerified(repos: Repositories, row: DomainRow): Promise<void> {
  await repos.domains.recordCheck(row.id, {
    status: 'verified',
    failure_reason: null,
    failure_message: null,
    record_checks: '{"ownership":"ok","routing":"ok"}',
    last_checked_at: row.created_at,
    verified_at: row.created_at,
    failing_since: null,
    unverified_since: row.unverified_since,
  })
}

/** A custom domain of the project `slug`, already verified: it serves at once. */
export async function verifiedDomain(repos: Repositories, slug: string, hostname: string, pathPrefix = '') {
  const project = await repos.projects.findBySlug(slug)
  if (!project) throw new Error(`no project ${slug}`)
  const domain = await repos.domains.create({ projectId: project.id, hostname, pathPrefix })
  if (!domain) throw new Error(`${hostname}${pathPrefix} is already claimed`)
  await markVerified(repos, domain)
  return domain
}
