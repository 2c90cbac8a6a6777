import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { apexAdvice, domainAddress, recordsTable } from '../domains/format.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'

export class DomainsAddCommand extends Command {
  static override paths = [['domains', 'add']]
  static override usage = Command.Usage({
    category: 'Domains',
    description: 'Add a custom domain and print the DNS records that prove it is yours',
    details: `
      The site is served at the host name (under --path-prefix, when given) once DNS holds the printed
      records and \`docsctl domains verify\` has checked them: a TXT record with a value unique to this
      domain, and a CNAME (or, for an apex, A/AAAA records) that sends the host to this service.
    `,
    examples: [
      ['Serve the docs at docs.example.com', 'docsctl domains add docs.example.com'],
      ['Serve them at example.com/docs', 'docsctl domains add example.com --path-prefix /docs'],
    ],
  })

  hostname = Option.String({ name: 'hostname' })
  pathPrefix = Option.String('--path-prefix', {
    description: 'Serve under this path, like /docs (default: the whole host)',
  })
  json = jsonOption('the added domain')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(this.context, this, async (client, project) => {
      const domain = await client.addDomain(project.id, {
        hostname: this.hostname,
        ...(this.pathPrefix === undefined ? {} : { pathPrefix: this.pathPrefix }),
      })
      if (this.json) {
        this.context.stdout.write(`${JSON.stringify(domain, null, 2)}\n`)
        return 0
      }
      const address = domainAddress(domain)
      this.context.stdout.write(
        [
          `${pc.green('Added')} ${address} to ${project.slug} (${domain.status}). Create these DNS records:`,
          '',
          recordsTable(domain.records, false),
          '',
          ...[apexAdvice(domain.hostname, domain.records)].flatMap((advice) => (advice ? [advice, ''] : [])),
          `Then run: docsctl domains verify ${address} --project ${project.slug}`,
          '',
        ].join('\n'),
      )
      return 0
    })
  }
}
