/**
 * `loadConfig`: docs.json in, a validated config and the normalised navigation tree out, with every
 * problem as a positioned diagnostic. The stages, in order: parse with positions (json-source.ts),
 * resolve `$ref` files (refs.ts), map older shapes (legacy.ts), validate against
 * schemas/docs.schema.json (schema-errors.ts), refuse unsafe URLs (url-fields.ts), normalise navigation
 * (navigation.ts).
 */
import { type Diagnostic, sortDiagnostics } from '../diagnostics.js'
import type { SourceFiles } from '../files.js'
import {
  createRedirectMatcher,
  GENERATED_REDIRECTS_FILE,
  type RedirectMatcher,
  redirectRules,
} from '../redirects.js'
import { formatJsonPath, type JsonPath, readJsonSource } from './json-source.js'
import { mapLegacyConfig, sourcePathOf } from './legacy.js'
import { normalizeNavigation } from './navigation.js'
import { describe, type Located, resolveRefs } from './refs.js'
import { docsValidator } from './schema.js'
import { type SchemaProblem, translateSchemaErrors, valueAt as valueAtPath } from './schema-errors.js'
import type { DocsConfig, LoadedConfig, ValidationMode } from './types.js'
import { dropUnsafeConfigUrls } from './url-fields.js'

export { normalizePageSlug } from './navigation.js'
export type * from './types.js'

/** Written into `$schema` by `docsctl new`; the CLI lets `DOCSCTL_SCHEMA_URL` override it. */
export const DEFAULT_SCHEMA_URL = 'http://localhost:8080/schemas/docs.schema.json'

export const CONFIG_FILE = 'docs.json'

export interface LoadConfigOptions {
  mode: ValidationMode
}

export function loadConfig(files: SourceFiles, options: LoadConfigOptions): LoadedConfig {
  const { config, navigation, diagnostics } = loadConfigWithSource(files, options)
  return { config, navigation, diagnostics }
}

/** What site checks need beyond `LoadedConfig`: the validated data and where each of its parts is. */
export interface ConfigWithSource extends LoadedConfig {
  /** docs.json after `$ref` resolution and legacy mapping (lenient: invalid parts dropped). */
  data: Record<string, unknown> | undefined
  /** File and position of a path of `data`, and that path as the author wrote it. */
  locate(path: JsonPath, at?: 'value' | 'key'): Located & { path: string }
  /** The files the configuration was read from: docs.json and every `$ref` file it reached. */
  sources: string[]
}

export function loadConfigWithSource(files: SourceFiles, options: LoadConfigOptions): ConfigWithSource {
  const { mode } = options
  const diagnostics: Diagnostic[] = []
  let locateIn: ConfigWithSource['locate'] = (path) => ({
    file: CONFIG_FILE,
    line: 1,
    column: 1,
    path: formatJsonPath(path),
  })
  let validated: Record<string, unknown> | undefined
  let sources = [CONFIG_FILE]
  const done = (
    config: DocsConfig | undefined,
    navigation: LoadedConfig['navigation'],
  ): ConfigWithSource => ({
    config,
    navigation,
    diagnostics: sortDiagnostics(diagnostics),
    data: validated,
    locate: (path, at) => locateIn(path, at),
    sources,
  })

  const bytes = files.get(CONFIG_FILE)
  if (!bytes) {
    diagnostics.push({
      severity: 'error',
      file: CONFIG_FILE,
      rule: 'missing-config',
      message: files.has('mint.json')
        ? 'docs.json not found, but mint.json is: this service reads docs.json; convert mint.json to docs.json'
        : 'docs.json not found at the root of the docs directory; create one with `docsctl new`',
    })
    return done(undefined, undefined)
  }
  const read = readJsonSource(CONFIG_FILE, bytes)
  diagnostics.push(...read.diagnostics)
  const source = read.source
  if (!source) return done(undefined, undefined)
  if (source.value === null || typeof source.value !== 'object' || Array.isArray(source.value)) {
    diagnostics.push({
      severity: 'error',
      file: CONFIG_FILE,
      line: 1,
      column: 1,
      rule: 'invalid-type',
      message: `expected a JSON object at the top level, found ${describe(source.value)}`,
    })
    return done(undefined, undefined)
  }

  // Paths with a problem already reported; the schema's view of the same spot would only repeat it.
  const reported = new Set<string>()
  const document = resolveRefs(files, source, mode, diagnostics, reported)
  sources = document.files

  const legacy = mapLegacyConfig(document.value)
  for (const change of legacy.changes) {
    const displayPath = change.at === 'key' ? change.path.slice(0, -1) : change.path
    diagnostics.push({
      severity: mode === 'strict' ? 'error' : 'warning',
      ...document.locate(change.path, change.at),
      path: formatJsonPath(displayPath),
      rule: change.rule,
      message: mode === 'strict' ? change.unsupported : change.mapped,
    })
    if (mode === 'strict') reported.add(formatJsonPath(change.path))
  }

  const data = legacy.config as Record<string, unknown>
  validated = data
  locateIn = (path, at = 'value') => {
    const sourcePath = sourcePathOf(path, legacy.origins)
    return { ...document.locate(sourcePath, at), path: formatJsonPath(sourcePath) }
  }
  const validate = docsValidator()
  // Lenient: what one pass drops can leave its parent incomplete (a navbar link whose `href` was of the
  // wrong type has none once it is dropped), so validate again until a pass drops nothing. Each pass
  // drops at least one value, and a problem already reported is not reported twice.
  const said = new Set<string>()
  // What earlier passes dropped: a redirect dropped stays as a `null` entry (its neighbours keep their
  // indices), which the next pass must not report again.
  const dropped = new Set<string>()
  for (let pass = 0; pass < MAX_LENIENT_PASSES && !validate(data); pass++) {
    const problems = translateSchemaErrors(validate.errors ?? [], data)
    const ignoredEntries: JsonPath[] = []
    let droppedNow = 0
    for (const problem of problems) {
      const sourcePath = sourcePathOf(problem.path, legacy.origins)
      if (isUnder(formatJsonPath(sourcePath), reported)) continue
      if (isUnder(formatJsonPath(problem.path), dropped)) continue
      const structural = isStructural(problem)
      // The platform's settings we do not act on are harmless in any mode: they are read and left out.
      const severity =
        problem.rule === 'ignored-key' ? 'warning' : mode === 'strict' || structural ? 'error' : 'warning'
      const diagnostic: Diagnostic = {
        severity,
        ...document.locate(sourcePath, problem.at),
        path: formatJsonPath(sourcePathOf(problem.displayPath, legacy.origins)),
        rule: problem.rule,
        message:
          severity === 'warning'
            ? (problem.lenientMessage ?? `${problem.message}; ignored`)
            : problem.message,
      }
      const key = `${diagnostic.path}\n${diagnostic.rule}\n${diagnostic.message}`
      if (!said.has(key)) diagnostics.push(diagnostic)
      said.add(key)
      // Lenient: what the site cannot use is dropped, and the site renders without it.
      if (severity !== 'warning') continue
      droppedNow++
      // An ignored entry of a list goes alone; its neighbours' indices are kept until all are read.
      if (problem.rule === 'ignored-key' && typeof problem.path.at(-1) === 'number')
        ignoredEntries.push(problem.path)
      else {
        dropValue(data, problem.path)
        dropped.add(formatJsonPath(problem.path))
      }
    }
    for (const path of ignoredEntries.reverse()) {
      const list = valueAtPath(data, path.slice(0, -1))
      if (Array.isArray(list)) list.splice(Number(path.at(-1)), 1)
    }
    if (droppedNow === 0) break
  }

  dropUnsafeConfigUrls(data, mode, (path) => locateIn(path), diagnostics)

  const navigation = isRecord(data.navigation) ? normalizeNavigation(data.navigation) : undefined
  const config = typeof data.name === 'string' && navigation ? (data as unknown as DocsConfig) : undefined
  return done(config, navigation)
}

/** Validation passes of a lenient load: each drops what the last left incomplete (a few levels at most). */
const MAX_LENIENT_PASSES = 8

/** Keys whose values decide what pages exist and where they sit. */
const STRUCTURAL_KEYS = new Set(['navigation', 'tabs', 'groups', 'pages', 'tab', 'group'])

/**
 * Problems that change what pages exist or where they sit; lenient mode cannot ignore those. A bad
 * icon, `expanded` flag or link is dropped instead, and the site still renders.
 */
function isStructural(problem: SchemaProblem): boolean {
  if (problem.rule === 'unknown-key' || problem.rule === 'unsupported-key' || problem.rule === 'ignored-key')
    return false
  const [first] = problem.path
  if (first === undefined || first === 'name') return true
  if (first !== 'navigation') return false
  const lastKey = [...problem.path].reverse().find((segment) => typeof segment === 'string')
  return lastKey !== undefined && STRUCTURAL_KEYS.has(lastKey)
}

function isUnder(path: string, reported: ReadonlySet<string>): boolean {
  for (const prefix of reported) {
    if (path === prefix) return true
    if (path.startsWith(prefix) && (path[prefix.length] === '.' || path[prefix.length] === '[')) return true
  }
  return false
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** Deletes the nearest object key on `path` (array entries would shift their neighbours' indices). */
function dropValue(data: Record<string, unknown>, path: JsonPath): void {
  // Redirects are independent of one another: a bad one is left out, not the whole list.
  const [key, index] = path
  if (
    key === 'redirects' &&
    typeof index === 'number' &&
    path.length === 2 &&
    Array.isArray(data.redirects)
  ) {
    data.redirects[index] = null
    return
  }
  for (let length = path.length; length > 0; length--) {
    const key = path[length - 1]
    if (typeof key !== 'string') continue
    let parent: unknown = data
    for (const segment of path.slice(0, length - 1)) {
      parent =
        isRecord(parent) || Array.isArray(parent)
          ? (parent as Record<string | number, unknown>)[segment]
          : undefined
    }
    if (isRecord(parent)) {
      delete parent[key]
      return
    }
  }
}

/**
 * The site's docs.json redirects as one matcher, for the link checker and `docsctl dev`, followed by
 * those a build stage generated (GENERATED_REDIRECTS_FILE), as a deployment's `_redirects` orders
 * them: read again only when docs.json, a `$ref` file it reads or the generated rules changed (by
 * their bytes), so every page of a build, in every render worker, and every dev request shares it.
 */
const redirectsBySite = new WeakMap<
  SourceFiles,
  { matcher: RedirectMatcher; read: [string, Uint8Array | undefined][] }
>()

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export function siteRedirects(files: SourceFiles): RedirectMatcher {
  const cached = redirectsBySite.get(files)
  if (cached?.read.every(([path, bytes]) => files.get(path) === bytes)) return cached.matcher
  const loaded = loadConfigWithSource(files, { mode: 'lenient' })
  const generated = files.get(GENERATED_REDIRECTS_FILE)
  const matcher = createRedirectMatcher([
    ...redirectRules(loaded.data?.redirects),
    ...(generated ? redirectRules(parseJson(new TextDecoder().decode(generated))) : []),
  ])
  const read = [...loaded.sources, GENERATED_REDIRECTS_FILE].map((path): [string, Uint8Array | undefined] => [
    path,
    files.get(path),
  ])
  redirectsBySite.set(files, { matcher, read })
  return matcher
}
