import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { confirmAction, printJson } from '../output.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'

export class ProjectsDeleteCommand extends Command {
  static override paths = [['projects', 'delete']]
  static override usage = Command.Usage({
    category: 'Projects',
    description: 'Delete a project: its site, deployments, deploy keys and domains stop at once',
    details: `
      Asks first in a terminal; pass \`--yes\` in a script. The slug becomes free for a new project.
    `,
    examples: [
      ['Delete a project after confirming', 'docsctl projects delete acme-docs'],
      ['Delete without asking, in a script', 'docsctl projects delete acme-docs --yes'],
    ],
  })

  slug = Option.String({ required: false, name: 'slug' })
  yes = Option.Boolean('--yes', false, { description: 'Do not ask for confirmation' })
  json = jsonOption('the deleted project')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    return runForProject(
      this.context,
      { project: this.slug ?? this.project, apiUrl: this.apiUrl },
      async (client, project) => {
        await confirmAction({
          yes: this.yes,
          question: `Delete ${project.slug} and take ${project.url} offline? This cannot be undone.`,
          action: `Deleting ${project.slug}`,
        })
        await client.deleteProject(project.id)
        if (this.json) printJson(this.context, { deleted: project })
        else
          this.context.stdout.write(
            `${pc.green('Deleted')} ${project.slug}; ${project.url} no longer serves it.\n`,
          )
        return 0
      },
    )
  }
}
