import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { reportFailure } from '../auth/failure.js'
import { requireSession, sessionFailure } from '../auth/session.js'
import { domainAddress, findDomain, recordsTable } from '../domains/format.js'
import { requireProject, resolveProjectSlug } from '../push/project.js'
import { resolveSiteDir } from '../site-dir.js'

export class DomainsVerifyCommand extends Command {
  static override paths = [['domains', 'verify']]
  static override usage = Command.Usage({
    category: 'Domains',
    description: "Check a custom domain's DNS records now",
    details: `
      Asks the server to look the records up at once. Exits 0 when the domain is verified (and serving),
      1 when it is not, printing what DNS answered for each record and what to fix.
    `,
    examples: [
      ['Verify docs.example.com', 'docsctl domains verify docs.example.com'],
      ['Verify the /docs mount of example.com', 'docsctl domains verify example.com/docs'],
    ],
  })

  domain = Option.String({ name: 'domain' })
  pathPrefix = Option.String('--path-prefix', { description: 'Which mount of the host, like /docs' })
  json = Option.Boolean('--json', false, { description: 'Print the checked domain as JSON' })
  project = Option.String('--project', {
    description: 'Project slug (default: DOCSCTL_PROJECT, then docs.json "slug")',
  })
  apiUrl = Option.String('--api-url', { description: 'API address (default: the signed-in server)' })

  override async execute(): Promise<number> {
    let apiUrl = ''
    try {
      const slug = await resolveProjectSlug(this.project, await resolveSiteDir(undefined))
      const { client } = await requireSession(this.apiUrl)
      apiUrl = client.apiUrl
      const project = await requireProject(client, slug)
      const found = await findDomain(client, project, this.domain, this.pathPrefix)
      const domain = await client.verifyDomain(project.id, found.id)
      if (this.json) {
        this.context.stdout.write(`${JSON.stringify(domain, null, 2)}\n`)
        return domain.status === 'verified' ? 0 : 1
      }
      const address = domainAddress(domain)
      const lines: string[] = []
      if (domain.status === 'verified' && !domain.failure)
        lines.push(`${pc.green('Verified')}: ${address} serves ${project.slug} at ${domain.url}`)
      else if (domain.status === 'verified')
        lines.push(
          `${pc.yellow('Verified, but failing')}: ${address} keeps serving until ${domain.graceEndsAt}. ${domain.failure?.message ?? ''}`,
        )
      else lines.push(`${pc.red(`Not verified (${domain.status})`)}: ${domain.failure?.message ?? ''}`)
      lines.push('', recordsTable(domain.records, true), '')
      this.context.stdout.write(lines.join('\n'))
      return domain.status === 'verified' ? 0 : 1
    } catch (error) {
      return reportFailure(this.context, sessionFailure(error, apiUrl))
    }
  }
}
