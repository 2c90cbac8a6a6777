/**
 * Operation entries of docs.json's navigation become generated pages: `"GET /users"` and
 * `"spec.yaml GET /users"` entries are replaced by the slugs of pages made from those operations, a
 * section with a spec and nothing listed lists every operation (grouped by tag), and a section with an
 * AsyncAPI document lists a page per channel. Generated pages sit at the platform's URL scheme
 * (`<directory>/<tag>/<operation>`); where earlier builds put them is redirected.
 * In: the navigation tree, docs.json, the site's files and the specs (spec-index.ts).
 * Out: the generated pages' sources (and fragment indexes) in the site's files, the navigation
 * normalised again with their slugs, the redirects of moved pages, and a diagnostic per operation entry
 * that names no operation.
 */
import { normalizeNavigation } from '../config/navigation.js'
import type { DocsConfig, NavigationTree, ValidationMode } from '../config/types.js'
import type { Diagnostic } from '../diagnostics.js'
import type { SourceFiles } from '../files.js'
import type { RedirectRule } from '../redirects.js'
import type { ApiChannel } from './channels.js'
import { fragmentsPath, pageFromBlocks } from './fragments.js'
import { type ApiOperation, operationKey } from './operations.js'
import {
  type ApiPageSettings,
  channelBody,
  frontMatterBlock,
  operationFrontMatter,
  operationParts,
  operationTitle,
} from './page.js'
import { addPlaygroundOrigins } from './settings.js'
import {
  fetchedSpecPath,
  isRecord,
  isSpecUrl,
  type Json,
  parseOperationReference,
  rawConfig,
  resolveSpecName,
  specFile,
} from './sources.js'
import { findOperation, type SpecIndex, type SpecLookup } from './spec-index.js'

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

const encoder = new TextEncoder()

export interface NavigationContext {
  /** The site's files as uploaded (fragment indexes left out). */
  files: SourceFiles
  /** The site's files with generated pages: where this stage writes them. */
  output: Map<string, Uint8Array>
  config: DocsConfig
  settings: ApiPageSettings
  /** `api.openapi`: the specs of operation entries that name none. */
  defaultSources: string[]
  specFor: SpecLookup
  diagnostics: Diagnostic[]
  mode: ValidationMode
  /** The "Try it" panels' origins, added to by every generated operation page. */
  origins: Set<string>
}

export interface ExpandedNavigation {
  /** Navigation normalised again with operation entries as page slugs (the given one when nothing changed). */
  navigation: NavigationTree
  /** Slugs of generated operation and channel pages. */
  generated: string[]
  /** What each generated page's file was made from: `api-reference/list-plants.mdx` → its spec and operation. */
  sources: Map<string, GeneratedSource>
  /** Redirects from where earlier builds put generated pages to where they are now. */
  moved: RedirectRule[]
}

/** Where a generated page comes from: the spec file and the operation (`GET /plants`) or channel in it. */
export interface GeneratedSource {
  file: string
  entry: string
}

interface Section {
  spec: string | undefined
  directory: string | undefined
}

export async function expandNavigation(
  navigation: NavigationTree,
  context: NavigationContext,
): Promise<ExpandedNavigation> {
  const { files, output, config, settings, defaultSources, specFor, diagnostics, mode, origins } = context
  // Navigation: operation entries become the slugs of generated pages.
  const generated: string[] = []
  const sources = new Map<string, GeneratedSource>()
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
    sources.set(`${slug}.mdx`, { file: index.file, entry: operationKey(operation.method, operation.path) })
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
    sources.set(`${slug}.mdx`, { file: index.file, entry: channel.name })
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

  return {
    navigation: changed && isRecord(rewritten) ? normalizeNavigation(rewritten) : navigation,
    generated,
    sources,
    // A page (authored or generated) now at an earlier URL keeps it.
    moved: [...moved]
      .filter(([from]) => !taken.has(from))
      .map(([from, to]) => ({ source: `/${from}`, destination: `/${to}`, permanent: true })),
  }
}

const defaultSpecFile = (sources: string[]): string | undefined =>
  sources[0] ? specFile(sources[0]) : undefined

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

export function hasOperationEntries(node: unknown): boolean {
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
