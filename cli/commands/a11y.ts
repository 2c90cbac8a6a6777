import { readFile } from 'node:fs/promises'
import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import type { Diagnostic } from '../../compiler/diagnostics.js'
import { locateSiteDir, readSiteFiles } from '../../lib/site-dir.js'

/** The theme stylesheet whose colours are checked, as the package holds it. */
const THEME_STYLESHEET = 'compiler/theme/assets/site.css'

export class A11yCommand extends Command {
  static override paths = [['a11y']]
  static override usage = Command.Usage({
    description: "Check the pages' accessibility: alt text, headings, link text, contrast",
    details: `
      Reads every page (.mdx, .md) and reports, each at its file:line:col:
      - an image without alt text (\`![](…)\`, \`<img>\` without \`alt\`; \`alt=""\` marks a decorative one): error
      - a link without text: error; a link whose text says nothing out of context ("click here",
        "read more"): warning
      - a heading that skips a level (## then ####), or an h1 under a page title: warning

      Colour contrast: docs.json sets no colours in this format, so the theme's text colours are
      checked, light and dark, against WCAG AA (4.5:1); a pair below it is an error at its line in the
      theme's stylesheet. Fenced code blocks and inline code are skipped.

      Without [dir], uses the first of the current directory, ./docs and ./apps/docs that holds a
      docs.json. Exit code: 0 when there are no errors (warnings allowed), 1 when there are errors or
      the directory cannot be read.
    `,
    examples: [
      ['Check the docs in this directory (or ./docs, ./apps/docs)', 'docsctl a11y'],
      ['Print the problems and the contrast ratios as JSON', 'docsctl a11y ./site --json'],
    ],
  })

  dir = Option.String({ required: false, name: 'dir' })
  json = Option.Boolean('--json', false, { description: 'Print the result as JSON' })

  override async execute(): Promise<number> {
    const { stdout, stderr } = this.context
    const { dir, shown, isDirectory } = await locateSiteDir(this.dir)
    if (!isDirectory) {
      const message = `docs directory "${shown}" not found; pass the folder that holds docs.json`
      if (this.json) stdout.write(`${JSON.stringify({ ok: false, dir, error: message }, null, 2)}\n`)
      else stderr.write(`${pc.red('error')} ${message}\n`)
      return 1
    }
    const [
      { pageProblems },
      { contrastProblems, themeContrast },
      { formatDiagnostic, hasErrors, sortDiagnostics },
      { fromPackageRoot },
    ] = await Promise.all([
      import('../a11y/page-checks.js'),
      import('../a11y/contrast.js'),
      import('../../compiler/diagnostics.js'),
      import('../../compiler/assets.js'),
    ])
    const { files } = await readSiteFiles(dir)
    const decoder = new TextDecoder()
    const pages = [...files.keys()].filter((path) => /\.mdx?$/i.test(path)).sort()
    const contrast = themeContrast(await readFile(fromPackageRoot(THEME_STYLESHEET), 'utf8'))
    const diagnostics: Diagnostic[] = [
      ...sortDiagnostics(pages.flatMap((path) => pageProblems(path, decoder.decode(files.get(path))))),
      ...contrastProblems(THEME_STYLESHEET, contrast),
    ]
    const ok = !hasErrors(diagnostics)

    if (this.json) {
      stdout.write(`${JSON.stringify({ ok, dir, pages: pages.length, diagnostics, contrast }, null, 2)}\n`)
      return ok ? 0 : 1
    }
    for (const diagnostic of diagnostics) {
      const label = diagnostic.severity === 'error' ? pc.red('error') : pc.yellow('warning')
      ;(diagnostic.severity === 'error' ? stderr : stdout).write(`${label} ${formatDiagnostic(diagnostic)}\n`)
    }
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length
    const warnings = diagnostics.length - errors
    const lowest = Math.min(...contrast.map((result) => result.ratio))
    const counts = `${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${plural(pages.length, 'page')}`
    if (!ok) {
      stderr.write(`${pc.red('✖')} ${shown}: ${counts}\n`)
      return 1
    }
    stdout.write(
      `${pc.green('✔')} ${shown}: ${counts}; theme colours pass WCAG AA (lowest contrast ${lowest}:1)\n`,
    )
    return 0
  }
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`
