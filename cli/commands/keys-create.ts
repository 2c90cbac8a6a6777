import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { printJson } from '../output.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'

export class KeysCreateCommand extends Command {
  static override paths = [['keys', 'create']]
  static override usage = Command.Usage({
    category: 'Deploy keys',
    description: 'Create a deploy key for CI; its value is printed once',
    details: `
      A deploy key (\`dk_…\`) deploys one project and can do nothing else. Store it as a CI secret
      named DOCSCTL_API_KEY; \`docsctl keys revoke\` stops it at once.
    `,
    examples: [
      ['A key for the project in docs.json', 'docsctl keys create "GitHub Actions"'],
      ['For a named project, as JSON', 'docsctl keys create ci --project acme-docs --json'],
    ],
  })

  name = Option.String({ required: false, name: 'name' })
  json = jsonOption('the key and its value')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(this.context, this, async (client, project) => {
      const name = this.name?.trim() || `CI (created by docsctl on ${new Date().toISOString().slice(0, 10)})`
      const created = await client.createDeployKey(project.id, name)
      if (this.json) {
        printJson(this.context, created)
        return 0
      }
      this.context.stdout.write(
        [
          `${pc.green('Created')} deploy key ${created.deployKey.id} ("${created.deployKey.name}") for ${project.slug}.`,
          'Its value, shown this once (store it as a CI secret named DOCSCTL_API_KEY):',
          `  ${created.token}`,
          '',
        ].join('\n'),
      )
      return 0
    })
  }
}
