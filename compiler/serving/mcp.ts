/**
 * A docs site's MCP server at `<site>/mcp`: the Streamable HTTP transport of the official SDK in
 * stateless mode (no session: any replica answers any request), over the files the build wrote:
 * `search` ranks `_search/index.js` with the site search's own ranking, `get_page` reads a page's `.md`
 * export, `list_pages` pages through `_mcp/pages.json`, and `llms.txt`/`llms-full.txt` are resources.
 * Read-only and bounded. docs-server (server/mcp/) and `docsctl dev` both answer with `answerMcp`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'
import { packageVersion } from '../../lib/version.js'
import { MCP_PAGES_PATH, type McpPage, type McpPages } from '../outputs/mcp-pages.js'
import { parseSearchIndex, SEARCH_INDEX_PATH } from '../outputs/search-index.js'
import { excerpt, type SearchIndex, search, summaryFor } from '../outputs/search-rank.js'

/** The path of the endpoint under a site's root. */
export const MCP_PATH = 'mcp'

/** Largest JSON-RPC request body read: MCP requests of these tools are a few hundred bytes. */
export const MAX_MCP_BODY_BYTES = 64 * 1024
/** Characters of one page's Markdown `get_page` returns; the rest is at the page's `.md` URL. */
export const MAX_PAGE_CHARS = 100_000
/** Characters of a resource (llms-full.txt of a large site is many megabytes). */
const MAX_RESOURCE_CHARS = 500_000
const MAX_SEARCH_RESULTS = 20
const MAX_LIST_PAGES = 200

/** What an MCP request may read of one deployed (or previewed) site. */
export interface McpSite {
  /** Absolute URL of the site root without the trailing slash: `https://docs.example.com/docs`. */
  base: string
  /** Bytes of a file of the built site (`llms.txt`, `guide/setup.md`), or undefined when it has none. */
  read(path: string): Promise<Uint8Array | undefined>
}

/** Parsed files, kept per bytes object: a caller that caches bytes gets each file parsed once. */
const parsedIndexes = new WeakMap<Uint8Array, SearchIndex>()
const parsedPages = new WeakMap<Uint8Array, McpPages>()

const decoder = new TextDecoder()

async function searchIndexOf(site: McpSite): Promise<SearchIndex> {
  const bytes = await site.read(SEARCH_INDEX_PATH)
  if (!bytes) return { pages: [] }
  let index = parsedIndexes.get(bytes)
  if (!index) {
    index = parseSearchIndex(decoder.decode(bytes))
    parsedIndexes.set(bytes, index)
  }
  return index
}

async function pagesOf(site: McpSite): Promise<McpPages> {
  const bytes = await site.read(MCP_PAGES_PATH)
  if (!bytes) return { name: '', pages: [] }
  let pages = parsedPages.get(bytes)
  if (!pages) {
    pages = JSON.parse(decoder.decode(bytes)) as McpPages
    parsedPages.set(bytes, pages)
  }
  return pages
}

/** The absolute URL of a site path (`guide/setup/`, `` for the root). */
const absolute = (site: McpSite, sitePath: string): string => `${site.base}/${encodeURI(sitePath)}`

const pageUrl = (site: McpSite, slug: string): string => absolute(site, slug === 'index' ? '' : `${slug}/`)

/**
 * The slug a `get_page` argument names: an absolute URL of the site, a path (`/docs/guide/setup/`,
 * `guide/setup.md`) or a slug (`guide/setup`). Undefined for something that cannot be a page.
 */
export function pageSlugFrom(site: Pick<McpSite, 'base'>, reference: string): string | undefined {
  let path = reference.trim()
  const basePath = new URL(site.base).pathname.replace(/\/$/, '')
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    let url: URL
    try {
      url = new URL(path)
    } catch {
      return undefined
    }
    path = url.pathname
    if (basePath && (path === basePath || path.startsWith(`${basePath}/`))) path = path.slice(basePath.length)
  } else {
    path = path.replace(/[?#].*$/, '')
    if (basePath && path.startsWith(`${basePath}/`)) path = path.slice(basePath.length)
  }
  try {
    path = decodeURIComponent(path)
  } catch {
    return undefined
  }
  path = path
    .replace(/^\/+|\/+$/g, '')
    .replace(/(^|\/)index\.html$/, '')
    .replace(/\.(mdx?|html)$/, '')
    .replace(/\/+$/, '')
  const slug = path === '' ? 'index' : path
  if (slug.split('/').some((segment) => segment === '' || segment === '.' || segment === '..'))
    return undefined
  if (/[\0\\]/.test(slug)) return undefined
  return slug
}

/** At most `limit` characters of `text`, saying where the rest is when it was cut. */
function bounded(text: string, limit: number, whole: string): string {
  if (text.length <= limit) return text
  return `${text.slice(0, limit)}\n\n[Truncated after ${limit} of ${text.length} characters: the whole text is at ${whole}]\n`
}

const searchResult = z.object({
  title: z.string(),
  url: z.string(),
  section: z.string().optional(),
  passage: z.string(),
})

const listedPage = z.object({
  title: z.string(),
  url: z.string(),
  slug: z.string(),
  path: z.array(z.string()),
  description: z.string().optional(),
})

/** A fresh server for one request (stateless mode), holding the site's tools and resources. */
export function createSiteMcpServer(site: McpSite, name: string): McpServer {
  const server = new McpServer(
    { name: name || 'docs', version: packageVersion },
    {
      instructions: `Documentation of ${name || 'this site'} at ${site.base}/. Use search to find pages, get_page to read one as Markdown, list_pages to browse the navigation.`,
    },
  )

  server.registerTool(
    'search',
    {
      title: 'Search the docs',
      description: `Search ${name || 'the documentation'}: the best matching pages, each with its title, URL and the passage that matches, ranked like the site's own search.`,
      inputSchema: {
        query: z.string().min(1).max(200).describe('Words to look for, e.g. "add memory" or "install"'),
        limit: z.number().int().min(1).max(MAX_SEARCH_RESULTS).optional().describe('Results wanted (10)'),
      },
      outputSchema: { results: z.array(searchResult) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, limit }) => {
      const hits = search(await searchIndexOf(site), query).slice(0, limit ?? 10)
      const results = hits.map(({ page, words }) => {
        const result: z.infer<typeof searchResult> = {
          title: page.t,
          url: absolute(site, page.u),
          passage: excerpt(summaryFor(page, words), words),
        }
        if (page.s) result.section = page.s
        return result
      })
      const text = results.length
        ? results
            .map(
              (result, i) =>
                `${i + 1}. ${result.title}${result.section ? ` (${result.section})` : ''}\n   ${result.url}\n   ${result.passage}`,
            )
            .join('\n\n')
        : `No page matches "${query}". Try fewer or other words, or list_pages.`
      return { content: [{ type: 'text', text }], structuredContent: { results } }
    },
  )

  server.registerTool(
    'get_page',
    {
      title: 'Read a page',
      description:
        'A page of the docs as Markdown, by its URL (absolute or a path like /guide/setup/) or its slug (guide/setup).',
      inputSchema: {
        page: z.string().min(1).max(2048).describe('URL, path or slug of the page'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ page }) => {
      const slug = pageSlugFrom(site, page)
      const bytes = slug === undefined ? undefined : await site.read(`${slug}.md`)
      if (slug === undefined || !bytes) {
        return {
          isError: true,
          content: [{ type: 'text', text: `No page at "${page}". Find pages with search or list_pages.` }],
        }
      }
      const whole = absolute(site, `${slug}.md`)
      return {
        content: [{ type: 'text', text: bounded(decoder.decode(bytes), MAX_PAGE_CHARS, whole) }],
      }
    },
  )

  server.registerTool(
    'list_pages',
    {
      title: 'List the pages',
      description:
        'The pages of the docs in navigation order, each with its title, URL and the sections and groups it sits in. Paged: pass the returned nextOffset to continue.',
      inputSchema: {
        offset: z.number().int().min(0).optional().describe('Pages to skip (0)'),
        limit: z.number().int().min(1).max(MAX_LIST_PAGES).optional().describe('Pages wanted (50)'),
      },
      outputSchema: { total: z.number(), pages: z.array(listedPage), nextOffset: z.number().optional() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ offset = 0, limit = 50 }) => {
      const all = (await pagesOf(site)).pages
      const pages = all.slice(offset, offset + limit).map((page: McpPage) => {
        const listed: z.infer<typeof listedPage> = {
          title: page.title,
          url: pageUrl(site, page.slug),
          slug: page.slug,
          path: page.path,
        }
        if (page.description) listed.description = page.description
        return listed
      })
      const next = offset + pages.length < all.length ? offset + pages.length : undefined
      const lines = pages.map((page) => `- ${[...page.path, page.title].join(' › ')}: ${page.url}`)
      if (next !== undefined) lines.push(`(${all.length - next} more: call list_pages with offset ${next})`)
      return {
        content: [{ type: 'text', text: lines.join('\n') || 'This site lists no pages.' }],
        structuredContent: { total: all.length, pages, ...(next === undefined ? {} : { nextOffset: next }) },
      }
    },
  )

  for (const file of ['llms.txt', 'llms-full.txt'] as const) {
    const uri = absolute(site, file)
    server.registerResource(
      file,
      uri,
      {
        title: file,
        description:
          file === 'llms.txt'
            ? 'The site map for language models: every page with a link to its Markdown.'
            : 'Every page of the site as Markdown, in navigation order (cut at 500,000 characters).',
        mimeType: 'text/plain',
      },
      async () => {
        const bytes = await site.read(file)
        const text = bytes ? bounded(decoder.decode(bytes), MAX_RESOURCE_CHARS, uri) : ''
        return { contents: [{ uri, mimeType: 'text/plain', text }] }
      },
    )
  }
  return server
}

/** Browser-based MCP clients call from other origins; the endpoint is public and read-only, no cookies. */
const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
  'access-control-expose-headers': 'mcp-session-id',
}

/** A JSON-RPC error answer outside the SDK (before the transport could read the request). */
export function sendJsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })
  response.writeHead(status, {
    ...corsHeaders,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...headers,
  })
  response.end(body)
}

/** The request body, or `undefined` when it is larger than `limit` (then the rest is not read). */
async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) return undefined
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/**
 * Answers one request to `<site>/mcp`: POST carries JSON-RPC; OPTIONS is a CORS preflight; other
 * methods get 405 (stateless: no server-sent stream to open with GET, no session to DELETE).
 * Oversized and malformed bodies get JSON-RPC errors with a 4xx status, never a 500.
 */
export async function answerMcp(
  request: IncomingMessage,
  response: ServerResponse,
  site: McpSite,
): Promise<void> {
  if (request.method === 'OPTIONS') {
    response.writeHead(204, { ...corsHeaders, 'access-control-max-age': '86400' })
    response.end()
    return
  }
  if (request.method !== 'POST') {
    sendJsonRpcError(response, 405, -32000, 'Method not allowed: send MCP requests with POST', {
      allow: 'POST, OPTIONS',
    })
    return
  }
  const body = await readBody(request, MAX_MCP_BODY_BYTES)
  if (!body) {
    // The unread rest of the body makes the connection unusable for another request.
    sendJsonRpcError(response, 413, -32600, `Request body larger than ${MAX_MCP_BODY_BYTES} bytes`, {
      connection: 'close',
    })
    return
  }
  let message: unknown
  try {
    message = JSON.parse(body.toString('utf8'))
  } catch {
    sendJsonRpcError(response, 400, -32700, 'Parse error: the request body is not JSON')
    return
  }
  const name = (await pagesOf(site)).name
  const server = createSiteMcpServer(site, name)
  // No sessionIdGenerator: stateless mode, so any replica answers any request.
  const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true })
  response.on('close', () => {
    transport.close().catch(() => {})
    server.close().catch(() => {})
  })
  for (const [header, value] of Object.entries(corsHeaders)) response.setHeader(header, value)
  response.setHeader('cache-control', 'no-store')
  await server.connect(transport)
  await transport.handleRequest(request, response, message)
}
