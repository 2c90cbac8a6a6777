/**
 * The API reference stage of a build: before pages are found, every place the format allows a spec is
 * read (`api.openapi`, a navigation section's `openapi`, `"METHOD /path"` and `"spec.yaml METHOD /path"`
 * entries, `openapi:`, `openapi-schema:` and `api:` front matter) and turned into ordinary pages:
 * generated `.mdx` sources added to the file map, operation entries in navigation replaced by those
 * pages' slugs, and front-matter pages given their generated content above the author's own. Everything
 * after (render, sidebar, search, llms.txt, `.md` exports, sitemap) sees pages like any other.
 */

import { createHash } from 'node:crypto'
import { parse as parseYaml } from 'yaml'
import { normalizeNavigation } from '../config/navigation.js'
import type { DocsConfig, NavigationTree, ValidationMode } from '../config/types.js'
import type { Diagnostic } from '../diagnostics.js'
import { decodeUtf8, type SourceFiles } from '../files.js'
import { GENERATED_REDIRECTS_FILE, type RedirectRule } from '../serving/redirects.js'
import { PLAYGROUND_ANY_SERVER } from '../serving/security-headers.js'
import { type ApiChannel, listChannels } from './channels.js'
import { FRAGMENTS_FOLDER, fragmentsPath, type GeneratedPage, pageFromBlocks } from './fragments.js'
import { type LoadedSpec, loadSpec } from './load.js'
import { type ApiOperation, listOperations, operationKey, type Schema } from './operations.js'
import {
  type ApiPageSettings,
  channelBody,
  code,
  frontMatterBlock,
  jsonAttr,
  jsxTag,
  markdown,
  operationFrontMatter,
  operationParts,
  operationTitle,
  schemaBody,
} from './page.js'

type Json = Record<string, unknown>

const isRecord = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

const encoder = new TextEncoder()

/** docs.json as read: the navigation is walked as data, whatever the generated types say. */
const rawConfig = (config: DocsConfig): Json => config as unknown as Json

/** Where the CLI stores a spec it fetched from a URL in docs.json, inside the upload. */
export function fetchedSpecPath(url: string): string {
  return `_openapi/${createHash('sha256').update(url).digest('hex').slice(0, 16)}.spec`
}

export const isSpecUrl = (source: string): boolean => /^https?:\/\//i.test(source)

/** Every spec source docs.json names (`api.openapi`, sections' `openapi`), URLs included, each once. */
export function configSpecSources(config: DocsConfig): string[] {
  const sources = new Set<string>()
  const add = (value: unknown) => {
    for (const entry of Array.isArray(value) ? value : [value]) {
      if (typeof entry === 'string' && entry.trim() !== '') sources.add(entry.trim())
      else if (isRecord(entry) && typeof entry.source === 'string') sources.add(entry.source.trim())
    }
  }
  const api = rawConfig(config).api
  if (isRecord(api)) {
    add(api.openapi)
    add(api.asyncapi)
  }
  const walk = (node: unknown) => {
    if (Array.isArray(node)) for (const entry of node) walk(entry)
    else if (isRecord(node)) {
      if (node.openapi !== undefined) add(node.openapi)
      if (node.asyncapi !== undefined) add(node.asyncapi)
      for (const [key, value] of Object.entries(node))
        if (key !== 'openapi' && key !== 'asyncapi') walk(value)
    }
  }
  walk(rawConfig(config).navigation)
  return [...sources]
}

/** `"openapi.yaml GET /users"` → its parts; `undefined` for anything that is not an operation reference. */
export function parseOperationReference(
  entry: string,
): { spec?: string; method: string; path: string } | undefined {
  // The spec may be named without its extension (`v3-openapi GET /runs/{id}`), as the format's tools allow.
  const match = /^(?:(\S+)\s+)?(get|post|put|patch|delete|head|options|trace|webhook)\s+(\S.*)$/i.exec(
    entry.trim(),
  )
  if (!match) return undefined
  const reference: { spec?: string; method: string; path: string } = {
    method: match[2]!.toUpperCase(),
    path: match[3]!.trim(),
  }
  if (match[1]) reference.spec = match[1]
  return reference
}

export interface ApiReference {
  /** The site's files with generated pages added and front-matter API pages completed. */
  files: SourceFiles
  /** Navigation normalised again with operation entries as page slugs (the given one when nothing changed). */
  navigation: NavigationTree
  diagnostics: Diagnostic[]
  /** Slugs of generated operation pages. */
  generated: string[]
  /** Origins (`https://api.example.com`) of the servers that generated "Try it" panels send requests to. */
  playgroundOrigins: string[]
  /** Redirects from where earlier builds put generated pages to where they are now. */
  moved: RedirectRule[]
}

interface SpecIndex {
  file: string
  spec: LoadedSpec
  operations: Map<string, ApiOperation>
  /** AsyncAPI documents' channels (empty for OpenAPI). */
  channels: ApiChannel[]
}

interface Section {
  spec: string | undefined
  directory: string | undefined
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
    return { files, navigation, diagnostics, generated: [], playgroundOrigins: [], moved: [] }

  const output = new Map(files)
  const origins = new Set<string>()
  const specs = new Map<string, Promise<SpecIndex | undefined>>()
  const reported = new Set<string>()
  const specFor = (source: string): Promise<SpecIndex | undefined> => {
    let found = specs.get(source)
    if (!found) {
      found = openSpec(files, source, diagnostics, reported)
      specs.set(source, found)
    }
    return found
  }
  const api = isRecord(rawConfig(config).api) ? (rawConfig(config).api as Json) : {}
  const defaultSources = sourceList(api.openapi)

  // Navigation: operation entries become the slugs of generated pages.
  const generated: string[] = []
  const taken = new Set(
    [...files.keys()].filter((path) => /\.mdx?$/.test(path)).map((path) => path.replace(/\.mdx?$/, '')),
  )
  const slugOf = new Map<string, string>()
  const moved = new Map<string, string>()
  const generate = (index: SpecIndex, operation: ApiOperation, directory: string | undefined): string => {
    const key = `${index.file} ${operationKey(operation.method, operation.path)} ${directory ?? ''}`
    const known = slugOf.get(key)
    if (known) return known
    // The platform's scheme: <directory>/<first tag>/<operation>; untagged operations sit in <directory>.
    const folder = directory ?? 'api-reference'
    const name = slugify(operationTitle(operation)) || slugify(`${operation.method} ${operation.path}`)
    const [tag] = operation.tags
    const join = (parts: string[]) =>
      parts
        .map((part) => part.replace(/^\/+|\/+$/g, ''))
        .filter(Boolean)
        .join('/')
    const base = join([folder, tag ? slugify(tag) : '', name])
    let slug = base
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`
    taken.add(slug)
    slugOf.set(key, slug)
    // Earlier builds put the page at <directory>/<operation>: links and bookmarks to it are redirected.
    const earlier = join([folder, name])
    if (earlier !== slug) moved.set(earlier, slug)
    const reference = `${index.file === defaultSpecFile(defaultSources) ? '' : `${index.file} `}${operationKey(operation.method, operation.path)}`
    const page = pageFromBlocks(
      frontMatterBlock(operationFrontMatter(operation, reference)),
      operationParts(operation, settings),
    )
    output.set(`${slug}.mdx`, encoder.encode(page.source))
    output.set(fragmentsPath(`${slug}.mdx`), page.index)
    generated.push(slug)
    addPlaygroundOrigins(origins, operation, settings)
    return slug
  }

  const generateChannel = (index: SpecIndex, channel: ApiChannel, directory: string | undefined): string => {
    const base = [directory ?? 'asyncapi', slugify(channel.title ?? channel.name)]
      .map((part) => part.replace(/^\/+|\/+$/g, ''))
      .filter(Boolean)
      .join('/')
    let slug = base
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`
    taken.add(slug)
    output.set(
      `${slug}.mdx`,
      encoder.encode(
        frontMatterBlock({
          title: channel.title ?? channel.name,
          asyncapi: `${index.file} ${channel.name}`,
        }) + channelBody(channel, settings),
      ),
    )
    generated.push(slug)
    return slug
  }

  const rawNavigation = rawConfig(config).navigation
  let changed = false
  const rewriteEntries = async (pages: unknown[], section: Section, path: string): Promise<unknown[]> => {
    const result: unknown[] = []
    for (const [position, entry] of pages.entries()) {
      if (typeof entry !== 'string') {
        result.push(await rewrite(entry, section, `${path}[${position}]`))
        continue
      }
      const reference = parseOperationReference(entry)
      if (!reference) {
        result.push(entry)
        continue
      }
      changed = true
      const candidates = reference.spec
        ? [resolveSpecName(specFile(reference.spec), files)]
        : section.spec
          ? [section.spec]
          : defaultSources
      const match = await findOperation(candidates, reference, specFor)
      if (match) result.push(generate(match.index, match.operation, section.directory))
      else if (candidates.every((source) => isSpecUrl(source) && !files.has(fetchedSpecPath(source)))) {
        // Reported once for the spec, where it is opened.
      } else
        diagnostics.push({
          severity: mode === 'strict' ? 'error' : 'warning',
          file: 'docs.json',
          path: `${path}[${position}]`,
          rule: 'openapi-operation',
          message: `Unexpected operation "${entry}", expected an operation of ${candidates.length > 0 ? candidates.join(', ') : 'an OpenAPI document (set api.openapi)'}`,
        })
    }
    return result
  }
  const rewrite = async (node: unknown, outer: Section, path: string): Promise<unknown> => {
    if (Array.isArray(node)) {
      const items: unknown[] = []
      for (const [position, entry] of node.entries())
        items.push(await rewrite(entry, outer, `${path}[${position}]`))
      return items
    }
    if (!isRecord(node)) return node
    const section = node.openapi !== undefined ? sectionOf(node.openapi, outer) : outer
    const copy: Json = {}
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pages' && Array.isArray(value))
        copy.pages = await rewriteEntries(value, section, `${path}.pages`)
      else if (key === 'openapi' || key === 'asyncapi' || typeof value !== 'object' || value === null)
        copy[key] = value
      else copy[key] = await rewrite(value, section, `${path}.${key}`)
    }
    // A section with a spec and nothing listed shows every operation, grouped by tag.
    if (
      node.openapi !== undefined &&
      section.spec &&
      asArray(node.pages).length === 0 &&
      asArray(node.groups).length === 0
    ) {
      const index = await specFor(section.spec)
      if (index) {
        changed = true
        const byTag = new Map<string, string[]>()
        for (const operation of index.operations.values()) {
          const tag = operation.tags[0] ?? ''
          if (!byTag.has(tag)) byTag.set(tag, [])
          byTag.get(tag)!.push(generate(index, operation, section.directory))
        }
        const isGroup = typeof node.group === 'string'
        if (byTag.size === 1 && isGroup) copy.pages = [...byTag.values()][0]
        else {
          const groups = [...byTag].map(([tag, pages]) => ({ group: tag || 'Endpoints', pages }))
          if (isGroup) copy.pages = groups
          else copy.groups = groups
        }
      }
    }
    // A section with an AsyncAPI document and nothing listed shows a page per channel.
    if (
      node.asyncapi !== undefined &&
      asArray(node.pages).length === 0 &&
      asArray(node.groups).length === 0
    ) {
      const channels = sectionOf(node.asyncapi, outer)
      const index = channels.spec ? await specFor(channels.spec) : undefined
      if (index) {
        changed = true
        const pages = index.channels.map((channel) => generateChannel(index, channel, channels.directory))
        if (typeof node.group === 'string') copy.pages = pages
        else copy.groups = [{ group: 'Channels', pages }]
      }
    }
    return copy
  }
  const rewritten = await rewrite(
    rawNavigation,
    { spec: defaultSources[0], directory: undefined },
    'navigation',
  )

  // Pages whose front matter names an operation, a schema, or an endpoint written by hand.
  let discovered: string[] | undefined
  for (const page of frontPages) {
    const completed = await completeFrontMatterPage(page, {
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
      discovered: () => {
        discovered ??= discoveredSpecs(files)
        return discovered
      },
    })
    if (typeof completed === 'string') output.set(page.file, encoder.encode(completed))
    else if (completed) {
      output.set(page.file, encoder.encode(completed.source))
      output.set(fragmentsPath(page.file), completed.index)
    }
  }

  // A page (authored or generated) now at an earlier URL keeps it.
  const movedRules: RedirectRule[] = [...moved]
    .filter(([from]) => !taken.has(from))
    .map(([from, to]) => ({ source: `/${from}`, destination: `/${to}`, permanent: true }))
  // The link checker reads them from the file map, so a link to an earlier URL is no broken link.
  if (movedRules.length > 0) output.set(GENERATED_REDIRECTS_FILE, encoder.encode(JSON.stringify(movedRules)))
  return {
    files: output,
    navigation: changed && isRecord(rewritten) ? normalizeNavigation(rewritten) : navigation,
    diagnostics,
    generated,
    playgroundOrigins: [...origins].sort(),
    moved: movedRules,
  }
}

/** Origins of an operation's servers, when its page has a "Try it" panel: what the site's CSP lets pages connect to. */
const READER_ENTERED_ORIGINS = PLAYGROUND_ANY_SERVER

function addPlaygroundOrigins(
  origins: Set<string>,
  operation: ApiOperation,
  settings: ApiPageSettings,
): void {
  if ((settings.playground ?? 'interactive') !== 'interactive' || operation.webhook) return
  // The reader enters the base URL of a spec without servers: any https origin, or a local server.
  if (operation.servers.length === 0) for (const source of READER_ENTERED_ORIGINS) origins.add(source)
  for (const server of operation.servers) {
    try {
      const url = new URL(server.url)
      if (url.protocol === 'https:' || url.protocol === 'http:') origins.add(url.origin)
    } catch {
      // A relative server URL is on the site's own origin, which 'self' covers.
    }
  }
}

const defaultSpecFile = (sources: string[]): string | undefined =>
  sources[0] ? specFile(sources[0]) : undefined

function sourceList(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).flatMap((entry) =>
    typeof entry === 'string'
      ? [entry.trim()]
      : isRecord(entry) && typeof entry.source === 'string'
        ? [entry.source.trim()]
        : [],
  )
}

function sectionOf(value: unknown, outer: Section): Section {
  const first = Array.isArray(value) ? value[0] : value
  if (typeof first === 'string') return { spec: first.trim(), directory: outer.directory }
  if (isRecord(first)) {
    return {
      spec: typeof first.source === 'string' ? first.source.trim() : outer.spec,
      directory:
        typeof first.directory === 'string' ? first.directory.replace(/^\/+|\/+$/g, '') : outer.directory,
    }
  }
  return outer
}

/** The site path a source names: the file itself, or where the CLI put what it fetched from a URL. */
export const specFile = (source: string): string =>
  isSpecUrl(source)
    ? fetchedSpecPath(source)
    : source
        .trim()
        .replace(/^(\.\/)+/, '')
        .replace(/^\/+/, '')

async function openSpec(
  files: SourceFiles,
  source: string,
  diagnostics: Diagnostic[],
  reported: Set<string>,
): Promise<SpecIndex | undefined> {
  const file = resolveSpecName(specFile(source), files)
  if (!files.has(file)) {
    if (!reported.has(source)) {
      reported.add(source)
      diagnostics.push(
        isSpecUrl(source)
          ? {
              severity: 'warning',
              file: 'docs.json',
              rule: 'openapi-not-fetched',
              message: `OpenAPI document ${source} was not uploaded with the site; \`docsctl validate\`, \`push\` and \`dev\` fetch it, the server never does`,
            }
          : {
              severity: 'warning',
              file: 'docs.json',
              rule: 'openapi-missing',
              message: `Unexpected OpenAPI document "${source}", expected a file of the site`,
            },
      )
    }
    return undefined
  }
  const spec = await loadSpec(files, file)
  if (!reported.has(file)) {
    reported.add(file)
    diagnostics.push(
      ...spec.diagnostics.map((diagnostic) => ({ ...diagnostic, severity: 'warning' as const })),
    )
  }
  if (!spec.document) return undefined
  const operations = new Map<string, ApiOperation>()
  for (const operation of listOperations(spec.document)) {
    const key = operationKey(operation.webhook ? 'webhook' : operation.method, operation.path)
    if (!operations.has(key)) operations.set(key, operation)
  }
  const channels = typeof spec.document.asyncapi === 'string' ? listChannels(spec.document) : []
  return { file, spec, operations, channels }
}

async function findOperation(
  sources: readonly string[],
  reference: { method: string; path: string },
  specFor: (source: string) => Promise<SpecIndex | undefined>,
): Promise<{ index: SpecIndex; operation: ApiOperation } | undefined> {
  const wanted = operationKey(reference.method, reference.path)
  const loose = (key: string) => key.replace(/\/+$/, '').toLowerCase()
  for (const source of sources) {
    const index = await specFor(source)
    if (!index) continue
    const operation =
      index.operations.get(wanted) ?? [...index.operations].find(([key]) => loose(key) === loose(wanted))?.[1]
    if (operation) return { index, operation }
  }
  return undefined
}

function hasOperationEntries(node: unknown): boolean {
  if (typeof node === 'string') return parseOperationReference(node) !== undefined
  if (Array.isArray(node)) return node.some(hasOperationEntries)
  if (isRecord(node)) return Object.values(node).some(hasOperationEntries)
  return false
}

export function slugify(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
}

function pageSettings(config: DocsConfig, diagnostics: Diagnostic[]): ApiPageSettings {
  const api = isRecord(rawConfig(config).api) ? (rawConfig(config).api as Json) : {}
  const settings: ApiPageSettings = {}
  const examples = isRecord(api.examples) ? api.examples : {}
  if (Array.isArray(examples.languages))
    settings.languages = examples.languages.filter(
      (language): language is string => typeof language === 'string',
    )
  if (examples.defaults === 'all' || examples.defaults === 'required') settings.defaults = examples.defaults
  if (typeof examples.autogenerate === 'boolean') settings.autogenerate = examples.autogenerate
  const params = isRecord(api.params) ? api.params : {}
  if (params.expanded === 'all' || params.expanded === 'closed') settings.expanded = params.expanded
  const playground = isRecord(api.playground) ? api.playground : {}
  const display = playground.display
  if (display === 'auth' || display === 'interactive' || display === 'none' || display === 'simple')
    settings.playground = display
  if (playground.proxy === true)
    diagnostics.push({
      severity: 'warning',
      file: 'docs.json',
      path: 'api.playground.proxy',
      rule: 'openapi-proxy',
      message:
        'Unsupported api.playground.proxy: true; the "Try it" panel always sends requests from the reader\'s browser straight to the API (it needs CORS), never through this server',
    })
  return settings
}

// ── Front matter pages ───────────────────────────────────────────────────────────────────────────

interface FrontMatterPage {
  file: string
  source: string
  front: Json
  /** The text after the front matter block. */
  body: string
}

const isSnippetPath = (path: string): boolean =>
  path.startsWith('snippets/') || path.split('/').some((segment) => segment.startsWith('_'))

/** Pages with `openapi:`, `openapi-schema:` or `api:` in their front matter. */
function apiFrontMatterPages(files: SourceFiles): FrontMatterPage[] {
  const pages: FrontMatterPage[] = []
  for (const [file, bytes] of files) {
    if (!/\.mdx?$/.test(file) || isSnippetPath(file)) continue
    const source = decodeUtf8(bytes)
    if (source === undefined || !source.startsWith('---')) continue
    const end = /^---[ \t]*$/m.exec(source.slice(3))
    if (!end) continue
    const block = source.slice(3, 3 + end.index)
    if (!/^(openapi|openapi-schema|asyncapi|api)\s*:/m.test(block)) continue
    let front: unknown
    try {
      front = parseYaml(block)
    } catch {
      continue // The page's own render reports its bad front matter.
    }
    if (!isRecord(front)) continue
    const body = source.slice(3 + end.index + end[0].length).replace(/^\r?\n/, '')
    pages.push({ file, source, front, body })
  }
  return pages.sort((a, b) => (a.file < b.file ? -1 : 1))
}

interface FrontMatterContext {
  files: SourceFiles
  defaultSources: string[]
  sources: string[]
  specFor: (source: string) => Promise<SpecIndex | undefined>
  settings: ApiPageSettings
  config: DocsConfig
  diagnostics: Diagnostic[]
  mode: ValidationMode
  origins: Set<string>
  /** `api.asyncapi`: where `asyncapi: "channel"` front matter looks first. */
  asyncDefaults: string[]
  /** Spec files docs.json does not name, found once per build when a page needs them. */
  discovered: () => string[]
}

async function completeFrontMatterPage(
  page: FrontMatterPage,
  context: FrontMatterContext,
): Promise<string | GeneratedPage | undefined> {
  const { front } = page
  // At the front matter line that names what was not found, so an author sees where to look.
  const problem = (message: string, key = 'openapi') =>
    context.diagnostics.push({
      severity: context.mode === 'strict' ? 'error' : 'warning',
      file: page.file,
      ...frontMatterKeyPlace(page.source, key),
      rule: 'openapi-operation',
      message,
    })
  if (typeof front.openapi === 'string') {
    const reference = parseOperationReference(front.openapi)
    if (!reference) {
      problem(`Unexpected openapi: "${front.openapi}", expected "METHOD /path" or "spec.yaml METHOD /path"`)
      return withTitle(page, front.openapi)
    }
    const candidates = reference.spec
      ? [resolveRelative(reference.spec, page.file, context.files)]
      : [...context.defaultSources, ...context.sources, ...context.discovered()]
    const match = await findOperation([...new Set(candidates)], reference, context.specFor)
    if (!match) {
      problem(
        `Unexpected openapi: "${front.openapi}", expected an operation of ${candidates.length > 0 ? [...new Set(candidates)].join(', ') : 'an OpenAPI document in the site'}`,
      )
      return withTitle(page, front.openapi)
    }
    addPlaygroundOrigins(context.origins, match.operation, context.settings)
    const merged = { ...operationFrontMatter(match.operation, front.openapi), ...front }
    return pageFromBlocks(
      frontMatterBlock(merged),
      operationParts(match.operation, context.settings),
      page.body.trim() ? page.body : undefined,
    )
  }
  if (typeof front['openapi-schema'] === 'string') {
    const written = front['openapi-schema'].trim()
    const parts = written.split(/\s+/)
    const name = parts.at(-1)!
    const candidates =
      parts.length > 1
        ? [resolveRelative(parts[0]!, page.file, context.files)]
        : [...context.defaultSources, ...context.sources, ...context.discovered()]
    for (const source of new Set(candidates)) {
      const index = await context.specFor(source)
      const document = index?.spec.document
      const components = isRecord(document?.components) ? document.components : {}
      const schemas = isRecord(components.schemas)
        ? components.schemas
        : isRecord(document?.definitions)
          ? document.definitions
          : {}
      const schema = schemas[name]
      if (!isRecord(schema)) continue
      const merged = { title: name, ...front }
      return (
        frontMatterBlock(merged) +
        schemaBody(name, schema as Schema, context.settings) +
        (page.body.trim() ? `\n${page.body}` : '')
      )
    }
    problem(
      `Unexpected openapi-schema: "${written}", expected the name of a schema under components.schemas`,
      'openapi-schema',
    )
    return withTitle(page, name)
  }
  if (typeof front.asyncapi === 'string') {
    const parts = front.asyncapi.trim().split(/\s+/)
    const name = parts.length > 1 ? parts.slice(1).join(' ') : parts[0]!
    const candidates =
      parts.length > 1
        ? [resolveRelative(parts[0]!, page.file, context.files)]
        : [...context.asyncDefaults, ...context.sources, ...context.discovered()]
    for (const source of new Set(candidates)) {
      const channel = (await context.specFor(source))?.channels.find(
        (entry) => entry.name === name || entry.address === name,
      )
      if (!channel) continue
      const merged = { title: channel.title ?? channel.name, ...front }
      return (
        frontMatterBlock(merged) +
        channelBody(channel, context.settings) +
        (page.body.trim() ? `\n${page.body}` : '')
      )
    }
    problem(
      `Unexpected asyncapi: "${front.asyncapi}", expected a channel of an AsyncAPI document in the site`,
      'asyncapi',
    )
    return withTitle(page, name)
  }
  if (typeof front.api === 'string') {
    const reference = parseOperationReference(front.api)
    if (!reference) return undefined
    return `${page.source.slice(0, page.source.length - page.body.length)}${handWrittenEndpoint(reference, context.config)}\n\n${page.body}`
  }
  return undefined
}

/** Line and column of `key:` in a page's front matter (line 1 is its opening `---`). */
function frontMatterKeyPlace(source: string, key: string): { line?: number; column?: number } {
  const match = new RegExp(`^(['"]?)${key}\\1[ \\t]*:`, 'm').exec(source)
  if (!match) return {}
  return { line: source.slice(0, match.index).split('\n').length, column: 1 }
}

/** A page whose operation or schema was not found keeps its own content, titled by what it names if it has no title. */
function withTitle(page: FrontMatterPage, fallback: string): string | undefined {
  if (typeof page.front.title === 'string') return undefined
  return frontMatterBlock({ title: fallback, ...page.front }) + page.body
}

/** `api: "POST /x"` pages: the endpoint line from `api.mdx.server` (else `api.url`), and `api.mdx.auth`. */
function handWrittenEndpoint(reference: { method: string; path: string }, config: DocsConfig): string {
  const api = isRecord(rawConfig(config).api) ? (rawConfig(config).api as Json) : {}
  const mdx = isRecord(api.mdx) ? api.mdx : {}
  const servers = sourceList(mdx.server ?? api.url).filter(isSpecUrl)
  const props = [`method={${JSON.stringify(reference.method)}}`, `path={${JSON.stringify(reference.path)}}`]
  if (servers.length > 0) props.push(`servers=${jsonAttr(servers)}`)
  const parts = [jsxTag('ApiEndpoint', props)]
  const auth = isRecord(mdx.auth) ? mdx.auth : undefined
  if (auth && typeof auth.method === 'string') {
    const method = auth.method.toLowerCase()
    const name = typeof auth.name === 'string' ? auth.name : method === 'key' ? 'X-API-Key' : 'Authorization'
    const location = method === 'cookie' ? 'cookie' : method === 'query' ? 'query' : 'header'
    const text =
      method === 'bearer'
        ? 'Bearer authentication header of the form `Bearer <token>`, where `<token>` is your auth token.'
        : method === 'basic'
          ? 'Basic authentication header of the form `Basic <encoded-value>`.'
          : `API key sent in the ${code(name)} ${location}.`
    parts.push(
      `## Authorizations\n\n<ParamField ${location}={${JSON.stringify(name)}} type="string" required>\n\n${markdown(text).replace(/\\</g, '<')}\n\n</ParamField>`,
    )
  }
  return parts.join('\n\n')
}

/** A spec named in front matter: relative to the page first (as authors often write it), else to the root. */
function resolveRelative(source: string, page: string, files: SourceFiles): string {
  if (isSpecUrl(source)) return source
  const clean = source.replace(/^(\.\/)+/, '')
  if (source.startsWith('/')) return resolveSpecName(clean.replace(/^\/+/, ''), files)
  const directory = page.includes('/') ? page.slice(0, page.lastIndexOf('/') + 1) : ''
  const beside = `${directory}${clean}`
  const found = resolveSpecName(beside, files)
  return files.has(found) ? found : resolveSpecName(clean, files)
}

const SPEC_EXTENSIONS = ['.yaml', '.yml', '.json']

/**
 * The site file a spec name means, as the format's own tools read it: the path itself, else the path
 * with a spec extension (`v3-openapi` → `v3-openapi.yaml`), else the one spec file in the site with
 * that stem (`v3-openapi` → `api/v3-openapi.yml`). A name that means nothing comes back as given, so
 * the diagnostic quotes what the author wrote.
 */
export function resolveSpecName(name: string, files: SourceFiles): string {
  if (isSpecUrl(name) || files.has(name)) return name
  for (const extension of SPEC_EXTENSIONS) if (files.has(`${name}${extension}`)) return `${name}${extension}`
  if (name.includes('/')) return name
  const byStem = [...files.keys()].filter(
    (path) =>
      /\.(json|ya?ml)$/i.test(path) && path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '') === name,
  )
  return byStem.length === 1 ? byStem[0]! : name
}

/** Spec files in the site that docs.json does not name (front matter `openapi:` may use any). */
function discoveredSpecs(files: SourceFiles): string[] {
  const found: string[] = []
  for (const [path, bytes] of files) {
    if (!/\.(json|ya?ml)$/i.test(path) || path === 'docs.json' || path.includes('node_modules/')) continue
    const head = new TextDecoder().decode(bytes.subarray(0, 400))
    if (/["']?(openapi|swagger|asyncapi)["']?\s*:\s*["']?[23]\./.test(head)) found.push(path)
  }
  return found.sort()
}
