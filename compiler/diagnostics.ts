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

/**
 * Errors that cost one page its body and nothing else (a page over its CPU or memory limit, its
 * snippets over theirs, a render that failed): a lenient build, what goes live, keeps the rest of the
 * site. A strict build (`validate`, `build`) fails on them like on any error.
 */
export const PAGE_LOCAL_RULES: ReadonlySet<string> = new Set(['page-limit', 'snippet-limit', 'render-failed'])

/** Whether `diagnostics` fail a build in `mode`. */
export const failsBuild = (diagnostics: readonly Diagnostic[], mode: 'strict' | 'lenient'): boolean =>
  diagnostics.some(
    (diagnostic) =>
      diagnostic.severity === 'error' && (mode === 'strict' || !PAGE_LOCAL_RULES.has(diagnostic.rule)),
  )

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
/** Bytes of diagnostics (as JSON) kept per build: a thousand long messages must not become megabytes. */
export const MAX_DIAGNOSTICS_BYTES = 256 * 1024
/** A message longer than this has its quoted author text shortened, then is cut. */
export const MAX_MESSAGE_CHARS = 500
/** How much of one quoted piece of author text a shortened message keeps. */
export const MAX_QUOTE_CHARS = 80
const MAX_PATH_CHARS = 200
const MAX_FILE_CHARS = 1024
/** Room kept for the summaries that count what was left out. */
const SUMMARY_BYTES = 200

/** The first `max` characters of `text` (never half a surrogate pair), with an ellipsis when cut. */
export function excerpt(text: string, max = MAX_QUOTE_CHARS): string {
  if (text.length <= max) return text
  let end = max
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return `${text.slice(0, end)}…`
}

// Author text a message quotes: "key", `attribute`, <element>.
const quotedRuns = [/"([^"\n]*)"/g, /`([^`\n]*)`/g, /<([^<>\n]*)>/g]

/**
 * The diagnostic with a message that fits `MAX_MESSAGE_CHARS`: each long piece of quoted author text
 * (an attribute name of 50,000 characters) is shortened to an excerpt, so the message still says what
 * and where; a message still too long is cut. Long JSON paths and file names are cut as well.
 */
export function shortenDiagnostic(diagnostic: Diagnostic): Diagnostic {
  const { message, path, file } = diagnostic
  if (
    message.length <= MAX_MESSAGE_CHARS &&
    (path === undefined || path.length <= MAX_PATH_CHARS) &&
    file.length <= MAX_FILE_CHARS
  )
    return diagnostic
  let shortened = message
  if (shortened.length > MAX_MESSAGE_CHARS) {
    for (const run of quotedRuns) {
      shortened = shortened.replace(run, (quoted, inner: string) =>
        inner.length > MAX_QUOTE_CHARS ? `${quoted[0]}${excerpt(inner)}${quoted.at(-1)}` : quoted,
      )
    }
    shortened = excerpt(shortened, MAX_MESSAGE_CHARS - 1)
  }
  return {
    ...diagnostic,
    file: excerpt(file, MAX_FILE_CHARS),
    ...(path === undefined ? {} : { path: excerpt(path, MAX_PATH_CHARS) }),
    message: shortened,
  }
}

const bytesOf = (diagnostic: Diagnostic): number => Buffer.byteLength(JSON.stringify(diagnostic)) + 1

/**
 * Keep the first `perFile` diagnostics of each file and `total` overall, in at most `maxBytes` of
 * JSON (errors first, so a cap never hides why a build failed; every message shortened), then one
 * diagnostic per file, and one for the build, counting the rest.
 */
export function capDiagnostics(
  diagnostics: readonly Diagnostic[],
  perFile = MAX_DIAGNOSTICS_PER_FILE,
  total = MAX_DIAGNOSTICS_PER_BUILD,
  maxBytes = MAX_DIAGNOSTICS_BYTES,
): Diagnostic[] {
  const ordered = [...diagnostics.filter(isError), ...diagnostics.filter((item) => !isError(item))]
  const keptPerFile = new Map<string, number>()
  // A file's count of the rest takes a slot where its first dropped diagnostic would have gone.
  const restOfFile = new Map<string, { diagnostic: Diagnostic; count: number }>()
  const kept: Diagnostic[] = []
  let bytes = 0
  let restOfBuild = 0
  let overBytes = false
  const budget = maxBytes - SUMMARY_BYTES
  const roomFor = (size: number): boolean => {
    if (kept.length >= total) return false
    if (bytes + size <= budget) return true
    overBytes = true
    return false
  }
  for (const original of ordered) {
    const diagnostic = shortenDiagnostic(original)
    const size = bytesOf(diagnostic)
    const count = keptPerFile.get(diagnostic.file) ?? 0
    const rest = restOfFile.get(diagnostic.file)
    if (count < perFile && roomFor(size)) {
      kept.push(diagnostic)
      bytes += size
      keptPerFile.set(diagnostic.file, count + 1)
    } else if (count < perFile) restOfBuild++
    else if (rest) rest.count++
    else if (roomFor(SUMMARY_BYTES)) {
      const summary: Diagnostic = {
        severity: diagnostic.severity,
        file: diagnostic.file,
        rule: 'diagnostics-limit',
        message: '',
      }
      restOfFile.set(diagnostic.file, { diagnostic: summary, count: 1 })
      kept.push(summary)
      bytes += SUMMARY_BYTES
    } else restOfBuild++
  }
  for (const { diagnostic, count } of restOfFile.values()) {
    diagnostic.message = `${count} more diagnostic(s) of this file beyond the first ${perFile} were not kept`
  }
  if (restOfBuild > 0) {
    kept.push({
      severity: 'warning',
      file: '',
      rule: 'diagnostics-limit',
      message: overBytes
        ? `${restOfBuild} more diagnostic(s) beyond the first ${kept.length} (${Math.round(maxBytes / 1024)} KB) of the build were not kept`
        : `${restOfBuild} more diagnostic(s) beyond the first ${total} of the build were not kept`,
    })
  }
  return kept
}

const isError = (diagnostic: Diagnostic): boolean => diagnostic.severity === 'error'
