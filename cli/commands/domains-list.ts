import { Command } from 'clipanion'
import { domainAddress, table } from '../domains/format.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'

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

  json = jsonOption('the domains')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(this.context, this, async (client, project) => {
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
    })
  }
}
