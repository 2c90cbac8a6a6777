import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { type Diagnostic, formatDiagnostic, hasErrors } from '../../compiler/diagnostics.js'
import { explainMissingConfig, locateSiteDir, readSiteFiles } from '../../lib/site-dir.js'
import { isInteractive } from '../push/project.js'
import {
  ALLOW_SPEC_HOSTS_ENV,
  allowSpecHostOption,
  fetchRemoteSpecs,
  specFetchPolicy,
} from '../remote-specs.js'

export class ValidateCommand extends Command {
  static override paths = [['validate']]
  static override usage = Command.Usage({
    description: 'Check docs.json and the pages it lists',
    details: `
      Checks docs.json strictly (unknown keys are errors) and the site it describes: every page in
      navigation exists as <slug>.mdx or <slug>.md, logo and favicon files exist, redirects do not
      loop, every page's front matter is valid, and every page renders: an unclosed component, a
      broken internal link, an unknown component or icon and a forbidden import are errors, each
      with its file:line:col and a fix. \`--config-only\` skips rendering the pages. Needs no sign-in.

      OpenAPI documents that docs.json names by URL are fetched only from hosts you allow with
      \`--allow-spec-host <host>\` (repeatable) or ${ALLOW_SPEC_HOSTS_ENV}; in a terminal docsctl asks
      about any other host, elsewhere it leaves those pages out and says which flag allows the host. A
      private or loopback host is fetched only when named that way, and no redirect to one is followed.

      Without [dir], uses the first of the current directory, ./docs and ./apps/docs that holds a
      docs.json. Prints every problem with its file, line and column. Exit code: 0 when valid (warnings
      allowed), 1 when there are errors or the directory cannot be read.
    `,
    examples: [
      ['Check the docs in this directory (or ./docs, ./apps/docs)', 'docsctl validate'],
      ['Check a given directory', 'docsctl validate ./site'],
      ['Print the diagnostics as JSON for an editor or CI', 'docsctl validate --json'],
      [
        'Fetch the OpenAPI document docs.json names on api.example.com',
        'docsctl validate --allow-spec-host api.example.com',
      ],
    ],
  })

  dir = Option.String({ required: false, name: 'dir' })
  json = Option.Boolean('--json', false, { description: 'Print the result as JSON' })
  configOnly = Option.Boolean('--config-only', false, {
    description: 'Check docs.json and front matter only, without rendering the pages',
  })
  allowSpecHost = allowSpecHostOption()

  override async execute(): Promise<number> {
    const { stdout, stderr } = this.context
    const { dir, shown, isDirectory } = await locateSiteDir(this.dir)
    if (!isDirectory) {
      const message = `docs directory "${shown}" not found; pass the folder that holds docs.json`
      if (this.json) stdout.write(`${JSON.stringify({ ok: false, dir, error: message }, null, 2)}\n`)
      else stderr.write(`${pc.red('error')} ${message}\n`)
      return 1
    }

    const started = performance.now()
    const { files, problems } = await readSiteFiles(dir)
    // --json output is read by a program: nobody to ask.
    const interactive = !this.json && isInteractive(Boolean(process.env.CI))
    const policy = specFetchPolicy({ flags: this.allowSpecHost, env: process.env, interactive })
    problems.push(...(await fetchRemoteSpecs(files, policy)))
    const [{ checkSite }, { defaultWorkers }] = await Promise.all([
      import('../../compiler/validate.js'),
      import('../../compiler/build.js'),
    ])
    const result = await checkSite(files, { workers: defaultWorkers(), configOnly: this.configOnly })
    const elapsedMs = Math.round(performance.now() - started)
    const diagnostics: Diagnostic[] = [
      ...problems.map((problem): Diagnostic => {
        const [file = '', ...reason] = problem.split(': ')
        return { severity: 'warning', file, rule: 'skipped-file', message: reason.join(': ') }
      }),
      ...explainMissingConfig(result.diagnostics, this.dir),
    ]
    const ok = !hasErrors(diagnostics)
    // Pages rendered (API pages generated from specs included), or those docs.json lists when none were.
    const pages = result.pagesChecked || (result.navigation?.pages.length ?? 0)

    if (this.json) {
      stdout.write(`${JSON.stringify({ ok, dir, pages, diagnostics }, null, 2)}\n`)
      return ok ? 0 : 1
    }
    for (const diagnostic of diagnostics) {
      const label = diagnostic.severity === 'error' ? pc.red('error') : pc.yellow('warning')
      ;(diagnostic.severity === 'error' ? stderr : stdout).write(`${label} ${formatDiagnostic(diagnostic)}\n`)
    }
    const configFile = shown === '.' ? 'docs.json' : `${shown}/docs.json`
    const inPages = diagnostics.some((diagnostic) => !diagnostic.file.endsWith('.json'))
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length
    const warnings = diagnostics.length - errors
    if (!ok) {
      stderr.write(
        `${pc.red('✖')} ${configFile}${inPages ? ' and its pages' : ''}: ${plural(errors, 'error')}${warnings ? `, ${plural(warnings, 'warning')}` : ''}\n`,
      )
      return 1
    }
    const noted = warnings ? ` (${plural(warnings, 'warning')})` : ''
    stdout.write(
      `${pc.green('✔')} ${configFile} is valid: ${plural(pages, 'page')} checked in ${elapsedMs} ms${noted}\n`,
    )
    return 0
  }
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`
