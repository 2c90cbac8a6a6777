import { Command, Option, UsageError } from 'clipanion'
import pc from 'picocolors'
import type { GitConnectionInput } from '../../api.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../../project-command.js'
import { printGitSettings } from './status.js'

const providers = ['github', 'gitlab', 'gitea'] as const

/** GitHub for github.com URLs, GitLab for gitlab.* hosts; anything else must be named. */
export function guessProvider(repositoryUrl: string): GitConnectionInput['provider'] | undefined {
  let host: string
  try {
    host = new URL(repositoryUrl).hostname.toLowerCase()
  } catch {
    return undefined
  }
  if (host === 'github.com') return 'github'
  if (host === 'gitlab.com' || host.startsWith('gitlab.')) return 'gitlab'
  if (host === 'codeberg.org' || host.startsWith('gitea.') || host.startsWith('forgejo.')) return 'gitea'
  return undefined
}

export class GitConnectCommand extends Command {
  static override paths = [['git', 'connect']]
  static override usage = Command.Usage({
    category: 'Git',
    description: 'Deploy every push to a Git repository',
    details: `
      Connects the project to a repository: each push to the production branch is fetched, built and
      goes live; pushes to branches matching a --preview pattern get a preview at
      \`<branch>--<slug>.<base domain>\`. Prints the webhook to add to the repository (GitLab,
      Gitea/Forgejo), or says to install the server's GitHub App (GitHub). Running it again changes
      the settings.
    `,
    examples: [
      ['A GitHub repository', 'docsctl git connect https://github.com/acme/docs.git'],
      [
        'Self-hosted Gitea, docs in a folder, previews of every docs/ branch',
        'docsctl git connect https://git.acme.dev/acme/monorepo.git --provider gitea --docs-dir docs --preview "docs/**"',
      ],
    ],
  })

  repositoryUrl = Option.String({ name: 'repository-url' })
  provider = Option.String('--provider', {
    description: 'github, gitlab or gitea (Forgejo too); guessed for github.com and gitlab.com',
  })
  branch = Option.String('--branch', 'main', { description: 'The production branch (default main)' })
  docsDir = Option.String('--docs-dir', {
    description: 'Folder of docs.json in the repository (default: the first of ., docs, apps/docs with one)',
  })
  preview = Option.Array('--preview', { description: 'Branch pattern that gets previews; repeatable' })
  json = jsonOption('the connection')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    const provider = this.provider ?? guessProvider(this.repositoryUrl)
    if (!provider)
      throw new UsageError(
        `Say which server hosts ${this.repositoryUrl}: --provider github, --provider gitlab or --provider gitea (Forgejo too).`,
      )
    if (!(providers as readonly string[]).includes(provider))
      throw new UsageError(`Unknown provider "${provider}"; use github, gitlab or gitea (Forgejo too).`)
    return runForProject(this.context, this, async (client, project) => {
      const settings = await client.connectGit(project.id, {
        provider: provider as GitConnectionInput['provider'],
        repositoryUrl: this.repositoryUrl,
        productionBranch: this.branch,
        docsDirectory: this.docsDir ?? null,
        previewBranches: this.preview ?? [],
      })
      if (this.json) {
        this.context.stdout.write(`${JSON.stringify(settings, null, 2)}\n`)
        return 0
      }
      this.context.stdout.write(
        `${pc.green('Connected')}: ${project.slug} deploys from ${this.repositoryUrl}\n`,
      )
      printGitSettings(this.context.stdout, project.slug, settings)
      return 0
    })
  }
}
