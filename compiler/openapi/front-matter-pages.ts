/**
 * API pages written by hand: pages whose front matter names an operation (`openapi:`), a schema
 * (`openapi-schema:`), an AsyncAPI channel (`asyncapi:`) or a hand-written endpoint (`api:`).
 * In: the site's files, the specs (spec-index.ts) and docs.json's `api` settings.
 * Out: each such page completed in the site's files, its generated content above the author's own
 * (with a fragment index for an operation page); a diagnostic at the front matter line that names
 * what was not found; the "Try it" panels' origins.
 */
import { parse as parseYaml } from 'yaml'
import type { DocsConfig, ValidationMode } from '../config/types.js'
import type { Diagnostic } from '../diagnostics.js'
import { decodeUtf8, type SourceFiles } from '../files.js'
import { fragmentsPath, type GeneratedPage, pageFromBlocks } from './fragments.js'
import type { Schema } from './operations.js'
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
  schemaBody,
} from './page.js'
import { addPlaygroundOrigins } from './settings.js'
import {
  discoveredSpecs,
  isRecord,
  isSpecUrl,
  type Json,
  parseOperationReference,
  rawConfig,
  resolveRelative,
  sourceList,
} from './sources.js'
import { findOperation, type SpecLookup } from './spec-index.js'

const encoder = new TextEncoder()

export interface FrontMatterPage {
  file: string
  source: string
  front: Json
  /** The text after the front matter block. */
  body: string
}

const isSnippetPath = (path: string): boolean =>
  path.startsWith('snippets/') || path.split('/').some((segment) => segment.startsWith('_'))

/** Pages with `openapi:`, `openapi-schema:` or `api:` in their front matter. */
export function apiFrontMatterPages(files: SourceFiles): FrontMatterPage[] {
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

export interface FrontMatterContext {
  files: SourceFiles
  defaultSources: string[]
  sources: string[]
  specFor: SpecLookup
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

/** Every page of `pages` completed in `output` (the site's files with generated pages added). */
export async function completeFrontMatterPages(
  pages: readonly FrontMatterPage[],
  context: Omit<FrontMatterContext, 'discovered'>,
  output: Map<string, Uint8Array>,
): Promise<void> {
  let discovered: string[] | undefined
  for (const page of pages) {
    const completed = await completeFrontMatterPage(page, {
      ...context,
      discovered: () => {
        discovered ??= discoveredSpecs(context.files)
        return discovered
      },
    })
    if (typeof completed === 'string') output.set(page.file, encoder.encode(completed))
    else if (completed) {
      output.set(page.file, encoder.encode(completed.source))
      output.set(fragmentsPath(page.file), completed.index)
    }
  }
}
