import { Command, Option } from 'clipanion'
import { domainAddress, findDomain } from '../domains/format.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'

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
  json = jsonOption('the removed domain')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(this.context, this, async (client, project) => {
      const domain = await findDomain(client, project, this.domain, this.pathPrefix)
      await client.removeDomain(project.id, domain.id)
      if (this.json) this.context.stdout.write(`${JSON.stringify({ removed: domain }, null, 2)}\n`)
      else
        this.context.stdout.write(
          `Removed ${domainAddress(domain)} from ${project.slug}; it no longer serves the site. You may delete its DNS records.\n`,
        )
      return 0
    })
  }
}
