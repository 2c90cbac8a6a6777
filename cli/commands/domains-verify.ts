import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { apexAdvice, domainAddress, findDomain, recordsTable } from '../domains/format.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'

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
  json = jsonOption('the checked domain')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(this.context, this, async (client, project) => {
      const found = await findDomain(client, project, this.domain, this.pathPrefix)
      const domain = await client.verifyDomain(project.id, found.id)
      const exitCode = domain.status === 'verified' ? 0 : 1
      if (this.json) {
        this.context.stdout.write(`${JSON.stringify(domain, null, 2)}\n`)
        return exitCode
      }
      const address = domainAddress(domain)
      const problem = domain.failure?.message ?? ''
      const headline =
        domain.status !== 'verified'
          ? `${pc.red(`Not verified (${domain.status})`)}: ${problem}`
          : domain.failure
            ? `${pc.yellow('Verified, but failing')}: ${address} keeps serving until ${domain.graceEndsAt}. ${problem}`
            : `${pc.green('Verified')}: ${address} serves ${project.slug} at ${domain.url}`
      const advice = domain.status === 'verified' ? undefined : apexAdvice(domain.hostname, domain.records)
      this.context.stdout.write(
        `${headline}\n\n${recordsTable(domain.records, true)}\n${advice ? `\n${advice}\n` : ''}`,
      )
      return exitCode
    })
  }
}
