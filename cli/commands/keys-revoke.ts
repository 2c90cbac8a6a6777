import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { CommandFailure } from '../auth/failure.js'
import { confirmAction, printJson } from '../output.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'

export class KeysRevokeCommand extends Command {
  static override paths = [['keys', 'revoke']]
  static override usage = Command.Usage({
    category: 'Deploy keys',
    description: 'Revoke a deploy key; CI jobs that use it fail from their next request',
    examples: [
      ['Revoke by id (see docsctl keys list)', 'docsctl keys revoke key_…'],
      ['By the start of its value, in a script', 'docsctl keys revoke dk_a1b2c3d --project acme-docs --yes'],
    ],
  })

  key = Option.String({ name: 'key' })
  yes = Option.Boolean('--yes', false, { description: 'Do not ask for confirmation' })
  json = jsonOption('the revoked key')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(this.context, this, async (client, project) => {
      const keys = await client.listDeployKeys(project.id)
      // The id, or the start of the value as `keys list` shows it (the trailing … copied or not).
      const wanted = this.key.replace(/…$/, '')
      const matches = keys.filter(
        (key) =>
          key.id === wanted || (wanted.length >= 6 && wanted.startsWith(key.prefix)) || key.prefix === wanted,
      )
      const key = matches[0]
      if (!key || matches.length > 1)
        throw new CommandFailure(
          `${matches.length > 1 ? 'Several' : 'No'} active deploy key${matches.length > 1 ? 's match' : ''} "${this.key}" in ${project.slug}. Pass an id from \`docsctl keys list --project ${project.slug}\`.`,
        )
      await confirmAction({
        yes: this.yes,
        question: `Revoke ${key.id} ("${key.name}")? CI jobs that use it will fail.`,
        action: `Revoking ${key.id}`,
      })
      await client.revokeDeployKey(project.id, key.id)
      if (this.json) printJson(this.context, { revoked: key })
      else
        this.context.stdout.write(
          `${pc.green('Revoked')} ${key.id} ("${key.name}"). Make a new one with: docsctl keys create --project ${project.slug}\n`,
        )
      return 0
    })
  }
}
