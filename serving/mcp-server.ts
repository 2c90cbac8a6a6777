/**
 * The MCP server of one docs site, over the files its build wrote: `search` ranks `_search/index.js`
 * with the site search's own ranking, `get_page` reads a page's `.md` export, `list_pages` pages
 * through `_mcp/pages.json`, and `llms.txt`/`llms-full.txt` are resources. Read-only and bounded.
 * One server and one stateless Streamable HTTP transport per request (no session: any replica
 * answers any request).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'
import { pageUrlPath } from '../compiler/content/links.js'
import { MCP_PAGES_PATH, type McpPage, type McpPages } from '../compiler/outputs/mcp-pages.js'
import { parseSearchIndex, SEARCH_INDEX_PATH } from '../compiler/outputs/search-index.js'
import { excerpt, type SearchIndex, search, summaryFor } from '../compiler/outputs/search-rank.js'
import { packageVersion } from '../lib/version.js'
import { corsHeaders, MAX_PAGE_CHARS, type McpSite, pageSlugFrom } from './mcp.js'

/** Characters of a resource (llms-full.txt of a large site is many megabytes). */
const MAX_RESOURCE_CHARS = 500_000
const MAX_SEARCH_RESULTS = 20
const MAX_LIST_PAGES = 200

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

const pageUrl = (site: McpSite, slug: string): string => absolute(site, pageUrlPath(slug))

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
      // A folder's own page (`guide/index`) is exported as `guide.md`, like its URL `/guide/`.
      const slug = pageSlugFrom(site, page)?.replace(/\/index$/, '')
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

/** Answers one JSON-RPC message (or batch) already read from the request, with a fresh server. */
export async function serveMcpRequest(
  request: IncomingMessage,
  response: ServerResponse,
  site: McpSite,
  message: unknown,
): Promise<void> {
  const server = createSiteMcpServer(site, (await pagesOf(site)).name)
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
