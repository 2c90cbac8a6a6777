/**
 * `checkSite`: what `docsctl validate` and `docsctl push` report, where authors work. docs.json and
 * the site it describes strictly (validate-site.ts), then every page through the same renderer
 * a build uses, so an unclosed component, a broken link, an unknown component or icon and a forbidden
 * import are errors with their file:line:col and a fix before anything is deployed. The server stays
 * lenient and renders what it can.
 */
import { buildSite } from './build.js'
import { CONFIG_FILE } from './config/index.js'
import type { ValidationMode } from './config/types.js'
import { type Diagnostic, formatDiagnostic, sortDiagnostics } from './diagnostics.js'
import type { SourceFiles } from './files.js'
import type { BuildCache } from './types.js'
import { type SiteValidation, validateSite } from './validate-site.js'

/** Page problems a build only warns about (it renders around them) that an author must fix before deploying. */
const STRICT_PAGE_RULES = new Set(['unknown-component', 'unknown-icon'])

/** A page diagnostic of a strict build as `validate` reports it: an unknown component or icon is an error. */
export const withValidateSeverity = (diagnostic: Diagnostic): Diagnostic =>
  STRICT_PAGE_RULES.has(diagnostic.rule) ? { ...diagnostic, severity: 'error' } : diagnostic

export interface SiteCheck extends SiteValidation {
  /** Pages rendered to check them (0 when docs.json cannot even be read leniently). */
  pagesChecked: number
  /** Pages whose check came from `cache` rather than a render. */
  pagesReused: number
  /** Hand this to the next check: a page whose render inputs are unchanged is not rendered again. */
  cache?: BuildCache
}

export interface CheckSiteOptions {
  /** Render workers for the page check (see `defaultWorkers`). */
  workers?: number
  /** Check docs.json and front matter only, not page bodies. */
  configOnly?: boolean
  /**
   * `strict` (the default) fails on unknown docs.json keys, broken links and unknown components or
   * icons; `lenient` reports them as warnings, as a deployment's build does.
   */
  mode?: ValidationMode
  /** The cache an earlier check returned (the build's page cache, keyed by content hash). */
  cache?: BuildCache
}

export async function checkSite(files: SourceFiles, options: CheckSiteOptions = {}): Promise<SiteCheck> {
  const mode = options.mode ?? 'strict'
  const validation = validateSite(files, { mode })
  if (options.configOnly) return { ...validation, pagesChecked: 0, pagesReused: 0 }
  // docs.json's strict problems are reported above; read it leniently here, as the server would, so
  // one run reports the pages' problems too instead of hiding them until docs.json is fixed.
  const built = await buildSite(files, {
    mode,
    configMode: 'lenient',
    ...(options.workers ? { workers: options.workers } : {}),
    ...(options.cache ? { cache: options.cache } : {}),
  })
  const seen = new Set(validation.diagnostics.map(formatDiagnostic))
  const pageDiagnostics: Diagnostic[] = []
  for (const diagnostic of built.diagnostics) {
    // docs.json and front matter were checked above, with positions; a build repeats them.
    if (diagnostic.file === CONFIG_FILE || diagnostic.file.endsWith('.json')) continue
    const key = formatDiagnostic(diagnostic)
    if (seen.has(key)) continue
    seen.add(key)
    pageDiagnostics.push(mode === 'strict' ? withValidateSeverity(diagnostic) : diagnostic)
  }
  return {
    ...validation,
    diagnostics: sortDiagnostics([...validation.diagnostics, ...pageDiagnostics]),
    pagesChecked: built.stats.pages,
    pagesReused: built.stats.pagesReused,
    cache: built.cache,
  }
}
