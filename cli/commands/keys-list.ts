import { Command } from 'clipanion'
import { printJson, shortTime, table } from '../output.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'

export class KeysListCommand extends Command {
  static override paths = [['keys', 'list']]
  static override usage = Command.Usage({
    category: 'Deploy keys',
    description: "List a project's active deploy keys (never their values)",
    examples: [
      ['Keys of the project in docs.json', 'docsctl keys list'],
      ['As JSON', 'docsctl keys list --project acme-docs --json'],
    ],
  })

  json = jsonOption('the keys')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(this.context, this, async (client, project) => {
      const keys = await client.listDeployKeys(project.id)
      if (this.json) {
        printJson(this.context, keys)
        return 0
      }
      if (keys.length === 0) {
        this.context.stdout.write(
          `No deploy keys for ${project.slug}. Create one for CI with: docsctl keys create --project ${project.slug}\n`,
        )
        return 0
      }
      const rows = keys.map((key) => [
        key.id,
        `${key.prefix}…`,
        key.name,
        shortTime(key.createdAt),
        key.lastUsedAt ? shortTime(key.lastUsedAt) : 'never',
      ])
      this.context.stdout.write(`${table([['ID', 'KEY', 'NAME', 'CREATED', 'LAST USED'], ...rows])}\n`)
      return 0
    })
  }
}
