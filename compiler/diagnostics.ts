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
