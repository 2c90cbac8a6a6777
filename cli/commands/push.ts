import { stat } from 'node:fs/promises'
import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { formatDiagnostic, hasErrors, sortDiagnostics } from '../../compiler/diagnostics.js'
import { readSiteFiles, resolveSiteDir } from '../../lib/site-dir.js'
import { ApiClient, ApiError } from '../api.js'
import { CommandFailure, reportFailure } from '../auth/failure.js'
import { requireSession, resolveApiUrl, sessionFailure } from '../auth/session.js'
import { writeCiOutputs } from '../push/ci-outputs.js'
import { deploy } from '../push/deploy.js'
import { detectGitContext } from '../push/git-context.js'
import { createReporter, formatBytes } from '../push/progress.js'
import { isInteractive, offerToCreateProject, readSiteIdentity, resolveProjectSlug } from '../push/project.js'
import {
  ALLOW_SPEC_HOSTS_ENV,
  allowSpecHostOption,
  fetchRemoteSpecs,
  specFetchPolicy,
} from '../remote-specs.js'

export class PushCommand extends Command {
  static override paths = [['push']]
  static override usage = Command.Usage({
    description: 'Deploy a docs directory',
    details: `
      Validates docs.json strictly, uploads the files the server does not already have (in batches of
      at most 4 MB), builds the site on the server and makes it live. \`--preview\` builds it without
      making it live and prints its preview URL; \`--no-wait\` returns once the build has started.

      In GitHub Actions the deployment id, status and URL are written to the step's outputs
      (\`$GITHUB_OUTPUT\`: deployment-id, status, live, url, preview-url) and to the job summary.

      The project slug comes from --project, then DOCSCTL_PROJECT, then "slug" in docs.json. Credentials
      come from --api-key, then DOCSCTL_API_KEY (a project deploy key, for CI), then the session of
      \`docsctl login\`. The branch and message default to DOCSCTL_BRANCH / DOCSCTL_COMMIT_MESSAGE, then
      the CI provider's environment or git.

      OpenAPI documents that docs.json names by URL are fetched only from hosts you allow with
      \`--allow-spec-host <host>\` (repeatable) or ${ALLOW_SPEC_HOSTS_ENV}; in a terminal docsctl asks
      about any other host, elsewhere it leaves those pages out and says which flag allows the host. A
      private or loopback host is fetched only when named that way, and no redirect to one is followed.
    `,
    examples: [
      ['Deploy the docs in this directory (or ./docs, ./apps/docs)', 'docsctl push'],
      ['Deploy a directory to a named project', 'docsctl push ./site --project acme-docs'],
      ['Deploy from CI with a deploy key', 'DOCSCTL_API_KEY=dk_… docsctl push --project acme-docs'],
      ['A preview for a pull request, not made live', 'docsctl push --preview'],
    ],
  })

  dir = Option.String({ required: false, name: 'dir' })
  project = Option.String('--project', {
    description: 'Project slug (default: DOCSCTL_PROJECT, then docs.json "slug")',
  })
  apiKey = Option.String('--api-key', {
    description: 'Project deploy key (default: DOCSCTL_API_KEY, then the login session)',
  })
  apiUrl = Option.String('--api-url', {
    description: 'API address (default: DOCSCTL_API_URL or http://localhost:8080)',
  })
  branch = Option.String('--branch', {
    description: 'Branch of the deployment (default: from git or CI, else main)',
  })
  message = Option.String('--message', {
    description: 'Commit message of the deployment (default: the last commit)',
  })
  preview = Option.Boolean('--preview', false, {
    description: 'Build without making it live; prints the preview URL',
  })
  noWait = Option.Boolean('--no-wait', false, {
    description: 'Return once the build has started instead of waiting for it',
  })
  allowSpecHost = allowSpecHostOption()

  override async execute(): Promise<number> {
    const env = process.env
    const stdout = this.context.stdout
    const reporter = createReporter(this.context.stderr as typeof process.stderr)
    const apiKey = this.apiKey ?? env.DOCSCTL_API_KEY
    let apiUrl = ''
    let slug: string | undefined
    try {
      const dir = await resolveSiteDir(this.dir)
      const files = await this.collect(dir)

      const git = await detectGitContext({ cwd: dir, branch: this.branch, message: this.message, env })
      slug = await resolveProjectSlug(this.project, dir, env)

      let client: ApiClient
      if (apiKey) {
        apiUrl = resolveApiUrl(this.apiUrl, env)
        client = new ApiClient({ apiUrl, token: () => apiKey })
      } else {
        const signedIn = await requireSession(this.apiUrl, env).catch((error: unknown) => {
          if (error instanceof CommandFailure)
            throw new CommandFailure(
              `${error.message}\nIn CI, pass a project deploy key with DOCSCTL_API_KEY instead.`,
            )
          throw error
        })
        client = signedIn.client
        apiUrl = client.apiUrl
        if (!(await client.findProjectBySlug(slug))) {
          if (!isInteractive(git.isCi))
            throw new CommandFailure(
              `No project "${slug}" exists on ${apiUrl} for your account. Run \`docsctl push\` once in a terminal to create it (it asks, then prints a deploy key for CI), or fix the slug: --project, DOCSCTL_PROJECT or "slug" in docs.json.`,
            )
          const created = await offerToCreateProject({
            client,
            slug,
            suggestedName: (await readSiteIdentity(dir)).name,
            write: (text) => stdout.write(text),
          })
          if (!created) {
            stdout.write('Nothing deployed.\n')
            return 1
          }
        }
      }

      const result = await deploy({
        client,
        slug,
        files,
        branch: git.branch,
        commitMessage: git.commitMessage,
        reporter,
        promote: !this.preview,
        wait: !this.noWait,
      })
      const deployment = result.deployment
      if (deployment.status === 'building' || deployment.status === 'uploading') {
        stdout.write(
          `${pc.green('Started')} ${deployment.id}: uploaded ${result.uploadedFiles} of ${result.totalFiles} files (${formatBytes(result.uploadedBytes)}); building.\n`,
        )
        stdout.write(
          `${this.preview ? 'Its preview URL appears' : 'It goes live'} when the build finishes: docsctl deployments show ${deployment.id} --project ${slug}\n`,
        )
        await writeCiOutputs({ deployment, url: null, slug }, env)
        return 0
      }
      const diagnostics = await client.allDiagnostics(slug, deployment)
      const warnings = diagnostics.filter((diagnostic) => diagnostic.severity === 'warning')
      if (deployment.status !== 'ready') {
        for (const diagnostic of sortDiagnostics(diagnostics))
          this.context.stderr.write(
            `${diagnostic.severity === 'error' ? pc.red('error') : pc.yellow('warning')} ${formatDiagnostic(diagnostic)}\n`,
          )
        throw new CommandFailure(
          `The build of ${deployment.id} failed${result.error ? `: ${result.error}` : ''}. The live site is unchanged; fix the problems above and push again.`,
        )
      }
      for (const diagnostic of warnings)
        this.context.stderr.write(`${pc.yellow('warning')} ${formatDiagnostic(diagnostic)}\n`)
      const where = deployment.url ?? deployment.previewUrl
      stdout.write(
        `${pc.green('Deployed')} ${deployment.id}: uploaded ${result.uploadedFiles} of ${result.totalFiles} files (${formatBytes(result.uploadedBytes)}).\n`,
      )
      stdout.write(`${deployment.live ? 'Live at' : 'Preview at'} ${where}\n`)
      if (this.preview)
        stdout.write(`Make it live: docsctl deployments promote ${deployment.id} --project ${slug}\n`)
      await writeCiOutputs({ deployment, url: where, slug }, env)
      return 0
    } catch (error) {
      return reportFailure(
        this.context,
        apiKey ? deployKeyFailure(error, slug) : sessionFailure(error, apiUrl),
      )
    }
  }

  /** Read the site and validate it strictly, exactly as `docsctl validate` reports problems. */
  private async collect(dir: string): Promise<Map<string, Uint8Array>> {
    const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
      throw new CommandFailure(
        error.code === 'ENOENT'
          ? `The directory ${dir} does not exist.`
          : `Cannot read ${dir}: ${error.code ?? error.message}.`,
      )
    })
    if (!info.isDirectory()) throw new CommandFailure(`${dir} is not a directory.`)
    const { files, problems, buildOutputs } = await readSiteFiles(dir).catch(
      (error: NodeJS.ErrnoException) => {
        throw new CommandFailure(
          `Cannot read ${dir}: ${error.code === 'EACCES' ? 'permission denied' : error.message}.`,
        )
      },
    )
    for (const output of buildOutputs)
      this.context.stderr.write(
        `Skipping ${output}/: it holds the output of \`docsctl build\`, not sources (list it in .docsignore to say so).\n`,
      )
    if (problems.length > 0)
      throw new CommandFailure(`Cannot push ${dir}:\n${problems.map((problem) => `  ${problem}`).join('\n')}`)
    const policy = specFetchPolicy({
      flags: this.allowSpecHost,
      env: process.env,
      interactive: isInteractive(Boolean(process.env.CI)),
    })
    for (const problem of await fetchRemoteSpecs(files, policy))
      this.context.stderr.write(`${pc.yellow('warning')} ${problem}\n`)
    const [{ checkSite }, { defaultWorkers }] = await Promise.all([
      import('../../compiler/validate.js'),
      import('../../compiler/build.js'),
    ])
    const diagnostics = sortDiagnostics((await checkSite(files, { workers: defaultWorkers() })).diagnostics)
    for (const diagnostic of diagnostics)
      this.context.stderr.write(
        `${diagnostic.severity === 'error' ? pc.red('error') : pc.yellow('warning')} ${formatDiagnostic(diagnostic)}\n`,
      )
    if (hasErrors(diagnostics))
      throw new CommandFailure(
        `${dir} has problems; fix the ones above (\`docsctl validate\` shows the same) and push again.`,
      )
    return files
  }
}

/** With a deploy key, a 401 or 404 means the key or the slug is wrong, not the session. */
function deployKeyFailure(error: unknown, slug: string | undefined): unknown {
  if (!(error instanceof ApiError)) return error
  if (error.status === 401)
    return new CommandFailure(
      `The deploy key was refused: it is wrong, revoked or for another server. Check --api-key / DOCSCTL_API_KEY, or create a new key with \`docsctl keys create --project ${slug ?? '<slug>'}\` (signed in) and store it as DOCSCTL_API_KEY.`,
    )
  if (error.status === 404 || error.status === 403)
    return new CommandFailure(
      `This deploy key cannot deploy to ${slug ? `"${slug}"` : 'that project'}: a key deploys only to its own project. Check --project, DOCSCTL_PROJECT or "slug" in docs.json.`,
    )
  return error
}
