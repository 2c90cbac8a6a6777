/**
 * Stage 2 of `buildSite`, the API reference: before pages are found, every place the format allows a spec is
 * read (`api.openapi`, a navigation section's `openapi`, `"METHOD /path"` and `"spec.yaml METHOD /path"`
 * entries, `openapi:`, `openapi-schema:` and `api:` front matter) and turned into ordinary pages:
 * generated `.mdx` sources added to the file map, operation entries in navigation replaced by those
 * pages' slugs, and front-matter pages given their generated content above the author's own. Everything
 * after (render, sidebar, search, llms.txt, `.md` exports, sitemap) sees pages like any other.
 *
 * The stage's parts: sources.ts (where specs are named), spec-index.ts (each spec opened once),
 * settings.ts (docs.json's `api` settings), navigation.ts (operation entries → generated pages),
 * front-matter-pages.ts (pages that name an operation, schema, channel or endpoint).
 * In: the site's files, docs.json, its navigation tree. Out: the `ApiReference` below.
 */
import type { DocsConfig, NavigationTree, ValidationMode } from '../config/types.js'
import type { Diagnostic } from '../diagnostics.js'
import type { SourceFiles } from '../files.js'
import { GENERATED_REDIRECTS_FILE, type RedirectRule } from '../redirects.js'
import { FRAGMENTS_FOLDER } from './fragments.js'
import { apiFrontMatterPages, completeFrontMatterPages } from './front-matter-pages.js'
import { expandNavigation, type GeneratedSource, hasOperationEntries } from './navigation.js'
import { pageSettings } from './settings.js'
import { configSpecSources, isRecord, type Json, rawConfig, sourceList } from './sources.js'
import { specLookup } from './spec-index.js'

/**
 * A diagnostic about a generated page names what the author wrote, the spec and the operation
 * (`openapi.yaml GET /plants: …`), not a file they never saw; the line of the generated page means
 * nothing to them, so it is left out.
 */
export function citeGeneratedSource(
  diagnostic: Diagnostic,
  sources: ReadonlyMap<string, GeneratedSource>,
): Diagnostic {
  const source = sources.get(diagnostic.file)
  if (!source) return diagnostic
  const { line: _line, column: _column, ...rest } = diagnostic
  return { ...rest, file: source.file, path: source.entry }
}

export interface ApiReference {
  /** The site's files with generated pages added and front-matter API pages completed. */
  files: SourceFiles
  /** Navigation normalised again with operation entries as page slugs (the given one when nothing changed). */
  navigation: NavigationTree
  diagnostics: Diagnostic[]
  /** Slugs of generated operation pages. */
  generated: string[]
  /** The spec and operation each generated page's file was made from, for diagnostics that name them. */
  sources: ReadonlyMap<string, GeneratedSource>
  /** Origins (`https://api.example.com`) of the servers that generated "Try it" panels send requests to. */
  playgroundOrigins: string[]
  /** Redirects from where earlier builds put generated pages to where they are now. */
  moved: RedirectRule[]
}

export async function expandApiReference(
  uploaded: SourceFiles,
  config: DocsConfig,
  navigation: NavigationTree,
  mode: ValidationMode,
): Promise<ApiReference> {
  // Fragment indexes are this stage's own: one uploaded with the site never splits an author's page.
  // So are the redirects it generates.
  const ownFile = (path: string) => path.startsWith(FRAGMENTS_FOLDER) || path === GENERATED_REDIRECTS_FILE
  const files = [...uploaded.keys()].some(ownFile)
    ? new Map([...uploaded].filter(([path]) => !ownFile(path)))
    : uploaded
  const diagnostics: Diagnostic[] = []
  const settings = pageSettings(config, diagnostics)
  const frontPages = apiFrontMatterPages(files)
  const sources = configSpecSources(config)
  if (sources.length === 0 && frontPages.length === 0 && !hasOperationEntries(rawConfig(config).navigation))
    return {
      files,
      navigation,
      diagnostics,
      generated: [],
      sources: new Map(),
      playgroundOrigins: [],
      moved: [],
    }

  const output = new Map(files)
  const origins = new Set<string>()
  const specFor = specLookup(files, diagnostics)
  const api = isRecord(rawConfig(config).api) ? (rawConfig(config).api as Json) : {}
  const defaultSources = sourceList(api.openapi)
  // Navigation: operation entries become the slugs of generated pages.
  const expanded = await expandNavigation(navigation, {
    files,
    output,
    config,
    settings,
    defaultSources,
    specFor,
    diagnostics,
    mode,
    origins,
  })

  // Pages whose front matter names an operation, a schema, or an endpoint written by hand.
  await completeFrontMatterPages(
    frontPages,
    {
      files,
      defaultSources,
      sources,
      specFor,
      settings,
      config,
      diagnostics,
      mode,
      origins,
      asyncDefaults: sourceList(api.asyncapi),
    },
    output,
  )

  // The link checker reads them from the file map, so a link to an earlier URL is no broken link.
  if (expanded.moved.length > 0)
    output.set(GENERATED_REDIRECTS_FILE, new TextEncoder().encode(JSON.stringify(expanded.moved)))
  return {
    files: output,
    navigation: expanded.navigation,
    diagnostics,
    generated: expanded.generated,
    sources: expanded.sources,
    playgroundOrigins: [...origins].sort(),
    moved: expanded.moved,
  }
}
