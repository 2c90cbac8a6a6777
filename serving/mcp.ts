/**
 * A docs site's MCP endpoint at `<site>/mcp`, the part every request passes: CORS, methods, a bounded
 * body read as JSON, then the server itself (mcp-server.ts, the official SDK), loaded on the first
 * MCP request so that starting docs-server or docsctl does not load the SDK. docs-server
 * (server/mcp/) and `docsctl dev` both answer with `answerMcp`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

/** The path of the endpoint under a site's root. */
export const MCP_PATH = 'mcp'

/** Largest JSON-RPC request body read: MCP requests of these tools are a few hundred bytes. */
export const MAX_MCP_BODY_BYTES = 64 * 1024
/** Characters of one page's Markdown `get_page` returns; the rest is at the page's `.md` URL. */
export const MAX_PAGE_CHARS = 100_000

/** What an MCP request may read of one deployed (or previewed) site. */
export interface McpSite {
  /** Absolute URL of the site root without the trailing slash: `https://docs.example.com/docs`. */
  base: string
  /** Bytes of a file of the built site (`llms.txt`, `guide/setup.md`), or undefined when it has none. */
  read(path: string): Promise<Uint8Array | undefined>
  /**
   * Counts a request's JSON-RPC calls (a batch has several) against a rate limit; the seconds until
   * the client may retry when they are over it. docs-server limits per client address; `docsctl dev` not.
   */
  admit?(
    calls: number,
  ): { retryAfterSeconds: number } | undefined | Promise<{ retryAfterSeconds: number } | undefined>
}

/** The answer to a request over its rate limit: HTTP 429 with a JSON-RPC error and Retry-After. */
export function sendRateLimited(response: ServerResponse, retryAfterSeconds: number, calls = 1): void {
  const what = calls > 1 ? `a batch of ${calls} calls is over the limit` : 'over the limit'
  sendJsonRpcError(
    response,
    429,
    -32000,
    `Rate limit exceeded (${what}): retry in ${retryAfterSeconds} seconds`,
    {
      'retry-after': String(retryAfterSeconds),
    },
  )
}

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

/** Browser-based MCP clients call from other origins; the endpoint is public and read-only, no cookies. */
export const corsHeaders = {
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
 * Oversized and malformed bodies get JSON-RPC errors with a 4xx status, never a 500; a batch whose
 * calls are over the site's rate limit is refused whole with 429.
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
  // Each call of a batch is one call against the limit, so a batch cannot multiply a client's budget.
  const calls = Array.isArray(message) ? Math.max(1, message.length) : 1
  const refused = await site.admit?.(calls)
  if (refused) {
    sendRateLimited(response, refused.retryAfterSeconds, calls)
    return
  }
  const { serveMcpRequest } = await import('./mcp-server.js')
  await serveMcpRequest(request, response, site, message)
}
