import { constants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { formatDiagnostic, hasErrors, sortDiagnostics } from '../../compiler/diagnostics.js'
import type { SiteCheck } from '../../compiler/validate.js'
import { readSiteFiles, resolveSiteDir } from '../../lib/site-dir.js'
import { ApiClient, ApiError, type ChangeReport } from '../api.js'
import { CommandFailure, failureMessage, reportFailure } from '../auth/failure.js'
import { requireSession, resolveApiUrl, sessionFailure } from '../auth/session.js'
import { checkCacheFile, loadCheckCache, saveCheckCache } from '../push/check-cache.js'
import { writeCiOutputs } from '../push/ci-outputs.js'
import { deploy, type PushResult } from '../push/deploy.js'
import { detectGitContext } from '../push/git-context.js'
import { PushPhases } from '../push/phases.js'
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
      Checks the cheap things first (the folder, the project slug, the credentials, that the server
      answers and the project is yours), then validates the site as \`docsctl validate\` does (strictly;
      \`--lenient\` reports unknown keys, broken links and unknown components as warnings, as the build
      does), rendering only pages changed since the last push: the others' results are kept in the
      user's cache folder (DOCSCTL_CACHE_DIR, else $XDG_CACHE_HOME/docsctl or ~/.cache/docsctl). It
      then uploads the files the server does not already have (in batches of
      at most 4 MB), builds the site on the server and makes it live. \`--preview\` builds it without
      making it live and prints its preview URL and its change report against the live site (pages
      changed, links broken, redirects missing, navigation; \`--json\` carries it whole); \`--no-wait\` returns once the build has started.

      In GitHub Actions the deployment id, status and URL are written to the step's outputs
      (\`$GITHUB_OUTPUT\`: deployment-id, status, live, url, preview-url) and to the job summary.
      Outside a terminal (CI logs, pipes) each phase prints one line with its time: read, validate,
      upload, build and live (the whole push); \`--json\` prints the outcome and those times on stdout.

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
    description: 'Build without making it live; prints the preview URL and the change report',
  })
  noWait = Option.Boolean('--no-wait', false, {
    description: 'Return once the build has started instead of waiting for it',
  })
  allowSpecHost = allowSpecHostOption()

  lenient = Option.Boolean('--lenient', false, {
    description: 'Report unknown keys, broken links and unknown components as warnings, as the build does',
  })
  json = Option.Boolean('--json', false, {
    description: 'Print the outcome and every phase time as JSON on stdout',
  })

  /** The check cache being written in the background, if it is. */
  private savingCache: Promise<void> | undefined

  override async execute(): Promise<number> {
    try {
      return await this.push()
    } finally {
      await this.savingCache
    }
  }

  private async push(): Promise<number> {
    const env = process.env
    const stdout = this.context.stdout
    const reporter = createReporter(this.context.stderr as typeof process.stderr)
    const phases = new PushPhases()
    const apiKey = this.apiKey ?? env.DOCSCTL_API_KEY
    let apiUrl = ''
    let slug: string | undefined
    try {
      // The cheap checks first, each saying what to do: the folder, the slug, the credentials, the
      // server and the project. Only then is the site read and checked, which takes a while.
      const dir = await resolveSiteDir(this.dir)
      await requireDirectory(dir)
      const git = await detectGitContext({ cwd: dir, branch: this.branch, message: this.message, env })
      slug = await resolveProjectSlug(this.project, dir, env)

      let client: ApiClient
      if (apiKey) {
        apiUrl = resolveApiUrl(this.apiUrl, env)
        client = new ApiClient({ apiUrl, token: () => apiKey })
        // Answers 401 for a wrong key and 404 for another project's slug (deployKeyFailure says which).
        await client.listDeployments(slug, { limit: 1 })
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
        const found = await client.lookUpSlug(slug)
        if ('taken' in found && found.taken)
          throw new CommandFailure(
            `The slug "${slug}" belongs to another account's project on ${apiUrl}. Choose another slug (--project, DOCSCTL_PROJECT or "slug" in docs.json), or ask its owner for a deploy key and push with DOCSCTL_API_KEY.`,
          )
        if (!('project' in found)) {
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

      phases.restart()
      const files = await this.read(dir)
      reporter.phase(phases.end('read', `${files.size} files`))
      const check = await this.check(dir, files)
      reporter.phase(
        phases.end(
          'validate',
          `${check.pagesChecked} pages, ${check.pagesReused} unchanged since the last check`,
        ),
      )

      const result = await deploy({
        client,
        slug,
        files,
        branch: git.branch,
        commitMessage: git.commitMessage,
        reporter,
        phases,
        promote: !this.preview,
        wait: !this.noWait,
      })
      const deployment = result.deployment
      if (deployment.status === 'building' || deployment.status === 'uploading') {
        await writeCiOutputs({ deployment, url: null, slug }, env)
        if (this.json) return this.writeJson(phases, result, null)
        stdout.write(
          `${pc.green('Started')} ${deployment.id}: uploaded ${result.uploadedFiles} of ${result.totalFiles} files (${formatBytes(result.uploadedBytes)}); building.\n`,
        )
        stdout.write(
          `${this.preview ? 'Its preview URL appears' : 'It goes live'} when the build finishes: docsctl deployments show ${deployment.id} --project ${slug}\n`,
        )
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
      await writeCiOutputs({ deployment, url: where, slug }, env)
      // A preview is compared with the live site: pages, links, redirects, navigation, screenshots.
      const report = this.preview ? await client.getChangeReport(slug, deployment.id) : null
      if (this.json) return this.writeJson(phases, result, where, report)
      stdout.write(
        `${pc.green('Deployed')} ${deployment.id}: uploaded ${result.uploadedFiles} of ${result.totalFiles} files (${formatBytes(result.uploadedBytes)}).\n`,
      )
      stdout.write(`${deployment.live ? 'Live at' : 'Preview at'} ${where}\n`)
      if (report) {
        stdout.write(`\n${report.summary}\n\n`)
        stdout.write(`Change report: ${report.url}\n`)
      }
      if (this.preview)
        stdout.write(`Make it live: docsctl deployments promote ${deployment.id} --project ${slug}\n`)
      return 0
    } catch (error) {
      const failure = apiKey ? deployKeyFailure(error, slug) : sessionFailure(error, apiUrl)
      if (this.json)
        stdout.write(`${JSON.stringify({ ok: false, error: failureMessage(failure), phases }, null, 2)}\n`)
      return reportFailure(this.context, failure)
    }
  }

  private writeJson(
    phases: PushPhases,
    result: PushResult,
    url: string | null | undefined,
    report: ChangeReport | null = null,
  ): number {
    const { deployment } = result
    const outcome = {
      ok: true,
      deploymentId: deployment.id,
      status: deployment.status,
      live: deployment.live,
      url: url ?? null,
      previewUrl: deployment.previewUrl ?? null,
      uploadedFiles: result.uploadedFiles,
      uploadedBytes: result.uploadedBytes,
      totalFiles: result.totalFiles,
      totalBytes: result.totalBytes,
      phases,
      ...(report ? { report } : {}),
    }
    this.context.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`)
    return 0
  }

  /** Read the site's files (and the OpenAPI documents it names by URL). */
  private async read(dir: string): Promise<Map<string, Uint8Array>> {
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
    return files
  }

  /**
   * Validate the site as `docsctl validate` does (strictly unless --lenient), rendering only the pages
   * changed since the last push of this folder: the others' results come from the local check cache.
   */
  private async check(dir: string, files: Map<string, Uint8Array>): Promise<SiteCheck> {
    const [{ checkSite }, { defaultWorkers }] = await Promise.all([
      import('../../compiler/validate.js'),
      import('../../compiler/build.js'),
    ])
    const cacheFile = checkCacheFile(dir)
    const cache = await loadCheckCache(cacheFile)
    const check = await checkSite(files, {
      workers: defaultWorkers(),
      mode: this.lenient ? 'lenient' : 'strict',
      ...(cache ? { cache } : {}),
    })
    // Written while the push goes on (the push waits for it before it exits): a few hundred ms saved.
    if (check.cache)
      this.savingCache = saveCheckCache(cacheFile, check.cache).then((unsaved) => {
        if (unsaved)
          this.context.stderr.write(
            `${pc.yellow('warning')} cannot keep the check cache in ${cacheFile} (${unsaved}); the next push checks every page again. Set DOCSCTL_CACHE_DIR to a writable folder.\n`,
          )
      })
    const diagnostics = sortDiagnostics(check.diagnostics)
    for (const diagnostic of diagnostics)
      this.context.stderr.write(
        `${diagnostic.severity === 'error' ? pc.red('error') : pc.yellow('warning')} ${formatDiagnostic(diagnostic)}\n`,
      )
    if (hasErrors(diagnostics))
      throw new CommandFailure(
        `${dir} has problems; fix the ones above (\`docsctl validate\` shows the same${this.lenient ? ' with --lenient' : ''}) and push again.${this.lenient ? '' : ' With --lenient, unknown keys, broken links and unknown components are warnings, as in the build.'}`,
      )
    return check
  }
}

/** The site folder exists and is a folder: said before anything else is checked. */
async function requireDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    throw new CommandFailure(
      error.code === 'ENOENT'
        ? `The directory ${dir} does not exist.`
        : `Cannot read ${dir}: ${error.code ?? error.message}.`,
    )
  })
  if (!info.isDirectory()) throw new CommandFailure(`${dir} is not a directory.`)
  await access(dir, constants.R_OK | constants.X_OK).catch((error: NodeJS.ErrnoException) => {
    throw new CommandFailure(
      `Cannot read ${dir}: ${error.code === 'EACCES' ? 'permission denied' : (error.code ?? error.message)}.`,
    )
  })
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
