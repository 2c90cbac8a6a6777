/** One problem found in an author's site, with its place. Every stage of the compiler reports these. */
export type Severity = 'error' | 'warning'

export interface Diagnostic {
  severity: Severity
  /** Path relative to the docs root, POSIX separators: `docs.json`, `guide/setup.mdx`. */
  file: string
  /** 1-based line and column of the problem, when known. */
  line?: number
  column?: number
  /** JSON path inside a config file (`navigation.tabs[1]`), when the problem is in one. */
  path?: string
  /** Stable rule id, for filtering and tests: `unknown-key`, `missing-page`, `unsupported-key`… */
  rule: string
  /** "Unexpected X, expected Y"-style wording, with a fix when one is likely. */
  message: string
}

/** `docs.json:14:5 navigation.tabs[1]: unknown key "grups"; did you mean "groups"?` */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  let place = diagnostic.file
  if (diagnostic.line !== undefined) {
    place += `:${diagnostic.line}`
    if (diagnostic.column !== undefined) place += `:${diagnostic.column}`
  }
  const path = diagnostic.path ? ` ${diagnostic.path}:` : ''
  return `${place}${path} ${diagnostic.message}`
}

export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean =>
  diagnostics.some((diagnostic) => diagnostic.severity === 'error')

/** Sort by file, then line, then column, so output is stable whatever order stages ran in. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      a.file.localeCompare(b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      a.message.localeCompare(b.message),
  )
}

/** Diagnostics kept per file and per build: a page of 100,000 warnings must not become 20 MB of JSON. */
export const MAX_DIAGNOSTICS_PER_FILE = 100
export const MAX_DIAGNOSTICS_PER_BUILD = 1000

/**
 * Keep the first `perFile` diagnostics of each file and `total` overall (errors first, so a cap never
 * hides why a build failed), then one diagnostic per file, and one for the build, counting the rest.
 */
export function capDiagnostics(
  diagnostics: readonly Diagnostic[],
  perFile = MAX_DIAGNOSTICS_PER_FILE,
  total = MAX_DIAGNOSTICS_PER_BUILD,
): Diagnostic[] {
  if (diagnostics.length <= Math.min(perFile, total)) return [...diagnostics]
  const ordered = [...diagnostics.filter(isError), ...diagnostics.filter((item) => !isError(item))]
  const keptPerFile = new Map<string, number>()
  // A file's count of the rest takes a slot where its first dropped diagnostic would have gone.
  const restOfFile = new Map<string, { diagnostic: Diagnostic; count: number }>()
  const kept: Diagnostic[] = []
  let restOfBuild = 0
  for (const diagnostic of ordered) {
    const count = keptPerFile.get(diagnostic.file) ?? 0
    const rest = restOfFile.get(diagnostic.file)
    if (count < perFile && kept.length < total) {
      kept.push(diagnostic)
      keptPerFile.set(diagnostic.file, count + 1)
    } else if (count < perFile || (!rest && kept.length >= total)) restOfBuild++
    else if (rest) rest.count++
    else {
      const summary: Diagnostic = {
        severity: diagnostic.severity,
        file: diagnostic.file,
        rule: 'diagnostics-limit',
        message: '',
      }
      restOfFile.set(diagnostic.file, { diagnostic: summary, count: 1 })
      kept.push(summary)
    }
  }
  for (const { diagnostic, count } of restOfFile.values()) {
    diagnostic.message = `${count} more diagnostic(s) of this file beyond the first ${perFile} were not kept`
  }
  if (restOfBuild > 0) {
    kept.push({
      severity: 'warning',
      file: '',
      rule: 'diagnostics-limit',
      message: `${restOfBuild} more diagnostic(s) beyond the first ${total} of the build were not kept`,
    })
  }
  return kept
}

const isError = (diagnostic: Diagnostic): boolean => diagnostic.severity === 'error'
