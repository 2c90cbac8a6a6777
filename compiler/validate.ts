/**
 * `checkSite`: what `docsctl validate` and `docsctl push` report, where authors work. docs.json and
 * the site it describes strictly (validate-site.ts), then every page through the same renderer
 * a build uses, so an unclosed component, a broken link, an unknown component or icon and a forbidden
 * import are errors with their file:line:col and a fix before anything is deployed. The server stays
 * lenient and renders what it can.
 */
import { buildSite } from './build.js'
import { CONFIG_FILE } from './config/index.js'
import { type Diagnostic, formatDiagnostic, sortDiagnostics } from './diagnostics.js'
import type { SourceFiles } from './files.js'
import { type SiteValidation, validateSite } from './validate-site.js'

/** Page problems a build only warns about (it renders around them) that an author must fix before deploying. */
const STRICT_PAGE_RULES = new Set(['unknown-component', 'unknown-icon'])

/** A page diagnostic of a strict build as `validate` reports it: an unknown component or icon is an error. */
export const withValidateSeverity = (diagnostic: Diagnostic): Diagnostic =>
  STRICT_PAGE_RULES.has(diagnostic.rule) ? { ...diagnostic, severity: 'error' } : diagnostic

export interface SiteCheck extends SiteValidation {
  /** Pages rendered to check them (0 when docs.json cannot even be read leniently). */
  pagesChecked: number
}

export interface CheckSiteOptions {
  /** Render workers for the page check (see `defaultWorkers`). */
  workers?: number
  /** Check docs.json and front matter only, not page bodies. */
  configOnly?: boolean
}

export async function checkSite(files: SourceFiles, options: CheckSiteOptions = {}): Promise<SiteCheck> {
  const validation = validateSite(files, { mode: 'strict' })
  if (options.configOnly) return { ...validation, pagesChecked: 0 }
  // docs.json's strict problems are reported above; read it leniently here, as the server would, so
  // one run reports the pages' problems too instead of hiding them until docs.json is fixed.
  const built = await buildSite(files, {
    mode: 'strict',
    configMode: 'lenient',
    ...(options.workers ? { workers: options.workers } : {}),
  })
  const seen = new Set(validation.diagnostics.map(formatDiagnostic))
  const pageDiagnostics: Diagnostic[] = []
  for (const diagnostic of built.diagnostics) {
    // docs.json and front matter were checked above, with positions; a build repeats them.
    if (diagnostic.file === CONFIG_FILE || diagnostic.file.endsWith('.json')) continue
    const key = formatDiagnostic(diagnostic)
    if (seen.has(key)) continue
    seen.add(key)
    pageDiagnostics.push(withValidateSeverity(diagnostic))
  }
  return {
    ...validation,
    diagnostics: sortDiagnostics([...validation.diagnostics, ...pageDiagnostics]),
    pagesChecked: built.stats.pages,
  }
}
