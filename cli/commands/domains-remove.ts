import { Command, Option } from 'clipanion'
import { reportFailure } from '../auth/failure.js'
import { requireSession, sessionFailure } from '../auth/session.js'
import { domainAddress, findDomain } from '../domains/format.js'
import { requireProject, resolveProjectSlug } from '../push/project.js'
import { resolveSiteDir } from '../site-dir.js'

export class DomainsRemoveCommand extends Command {
  static override paths = [['domains', 'remove']]
  static override usage = Command.Usage({
    category: 'Domains',
    description: 'Remove a custom domain; it stops serving at once',
    examples: [
      ['Remove docs.example.com', 'docsctl domains remove docs.example.com'],
      ['Remove the /docs mount of example.com', 'docsctl domains remove example.com/docs'],
    ],
  })

  domain = Option.String({ name: 'domain' })
  pathPrefix = Option.String('--path-prefix', { description: 'Which mount of the host, like /docs' })
  json = Option.Boolean('--json', false, { description: 'Print the removed domain as JSON' })
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
      const domain = await findDomain(client, project, this.domain, this.pathPrefix)
      await client.removeDomain(project.id, domain.id)
      if (this.json) this.context.stdout.write(`${JSON.stringify({ removed: domain }, null, 2)}\n`)
      else
        this.context.stdout.write(
          `Removed ${domainAddress(domain)} from ${project.slug}; it no longer serves the site. You may delete its DNS records.\n`,
        )
      return 0
    } catch (error) {
      return reportFailure(this.context, sessionFailure(error, apiUrl))
    }
  }
}
