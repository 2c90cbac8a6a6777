import { Command, Option } from 'clipanion'
import { reportFailure } from '../auth/failure.js'
import { requireSession, sessionFailure } from '../auth/session.js'
import { domainAddress, table } from '../domains/format.js'
import { requireProject, resolveProjectSlug } from '../push/project.js'
import { resolveSiteDir } from '../site-dir.js'

export class DomainsListCommand extends Command {
  static override paths = [['domains', 'list']]
  static override usage = Command.Usage({
    category: 'Domains',
    description: "List a project's custom domains and their status",
    examples: [
      ['Domains of the project in docs.json', 'docsctl domains list'],
      ['As JSON, for scripts', 'docsctl domains list --project acme-docs --json'],
    ],
  })

  json = Option.Boolean('--json', false, { description: 'Print the domains as JSON' })
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
      const domains = await client.listDomains(project.id)
      if (this.json) {
        this.context.stdout.write(`${JSON.stringify(domains, null, 2)}\n`)
        return 0
      }
      if (domains.length === 0) {
        this.context.stdout.write(
          `No custom domains for ${project.slug}. Add one with: docsctl domains add docs.example.com\n`,
        )
        return 0
      }
      const rows = domains.map((domain) => [
        domainAddress(domain),
        domain.status,
        domain.failure?.message ?? (domain.serving ? `serving ${domain.url}` : 'run docsctl domains verify'),
      ])
      this.context.stdout.write(`${table([['DOMAIN', 'STATUS', 'DETAIL'], ...rows])}\n`)
      return 0
    } catch (error) {
      return reportFailure(this.context, sessionFailure(error, apiUrl))
    }
  }
}
