import { Command } from 'clipanion'
import { reportFailure } from '../auth/failure.js'
import { requireSession, sessionFailure } from '../auth/session.js'
import { printJson, shortTime, table } from '../output.js'
import { apiUrlOption, jsonOption } from '../project-command.js'

export class ProjectsListCommand extends Command {
  static override paths = [['projects', 'list']]
  static override usage = Command.Usage({
    category: 'Projects',
    description: 'List your projects and their live URLs',
    examples: [
      ['Your projects', 'docsctl projects list'],
      ['As JSON, for scripts', 'docsctl projects list --json'],
    ],
  })

  json = jsonOption('the projects')
  apiUrl = apiUrlOption()

  override async execute(): Promise<number> {
    let apiUrl = ''
    try {
      const { client } = await requireSession(this.apiUrl)
      apiUrl = client.apiUrl
      const projects = await client.listProjects()
      if (this.json) {
        printJson(this.context, projects)
        return 0
      }
      if (projects.length === 0) {
        this.context.stdout.write(
          `No projects on ${client.apiUrl} yet. \`docsctl push\` in a docs folder creates one.\n`,
        )
        return 0
      }
      const rows = projects.map((project) => [
        project.slug,
        project.name,
        project.liveDeploymentId ? project.url : 'nothing live yet',
        shortTime(project.createdAt),
      ])
      this.context.stdout.write(`${table([['SLUG', 'NAME', 'SITE', 'CREATED'], ...rows])}\n`)
      return 0
    } catch (error) {
      return reportFailure(this.context, sessionFailure(error, apiUrl))
    }
  }
}
