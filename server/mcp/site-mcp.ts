/**
 * `<site>/mcp` on every site host: the live site at `<slug>.<base_domain>`, each preview host, and each
 * verified custom domain under its path prefix. Resolves the host and prefix as the site server does,
 * reads only that deployment's files (so one project's MCP never sees another's pages), limits calls
 * per client address (each call of a JSON-RPC batch counts), and hands the request to the shared MCP server (serving/mcp.ts).
 * A deployment built with `mcp.enabled: false` has no `_mcp/pages.json`, and no endpoint.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { LRUCache } from 'lru-cache'
import { MCP_PAGES_PATH } from '../../compiler/outputs/mcp-pages.js'
import { answerMcp, MCP_PATH, type McpSite, sendJsonRpcError, sendRateLimited } from '../../serving/mcp.js'
import { parseSiteUrl } from '../../serving/router.js'
import type { BlobStore } from '../blobs/store.js'
import type { ServerConfig } from '../config.js'
import { ClientRateLimit, type SharedWindows } from '../sites/client-rate-limit.js'
import { pickTarget } from '../sites/resolve-host.js'
import type { SiteEndpoint, SiteLookup } from '../sites/site-server.js'

/** A cheap first look on the hot path: only URLs whose path ends in `/mcp` go further here. */
export function mayBeMcpRequest(url: string | undefined): boolean {
  if (!url) return false
  const query = url.indexOf('?')
  return (query === -1 ? url : url.slice(0, query)).endsWith(`/${MCP_PATH}`)
}

/** Bytes of the files MCP reads (search index, page exports), by sha256. */
const cachedBytes = 64 * 1024 * 1024

export class SiteMcp implements SiteEndpoint {
  readonly #limit: ClientRateLimit
  readonly #bytes = new LRUCache<string, Buffer>({
    maxSize: cachedBytes,
    sizeCalculation: (bytes) => Math.max(1, bytes.length),
  })

  constructor(
    config: Pick<ServerConfig, 'mcpRateLimitPerMinute' | 'trustProxy'>,
    private readonly sites: SiteLookup,
    private readonly blobs: BlobStore,
    shared?: SharedWindows,
  ) {
    this.#limit = new ClientRateLimit(config.mcpRateLimitPerMinute, config.trustProxy, 'mcp', shared)
  }

  mayAnswer(url: string | undefined): boolean {
    return mayBeMcpRequest(url)
  }

  /**
   * Answers a request for a site's MCP endpoint and returns true; false when the URL is no site's
   * endpoint (or a GET the site itself answers, such as a page at `/mcp/`), for the site server.
   */
  async answer(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const lookup = await this.sites.hosts.resolve((request.headers.host ?? '').toLowerCase())
    if (!('targets' in lookup)) return false
    const url = parseSiteUrl(request.url ?? '/')
    if ('invalid' in url) return false
    const site = pickTarget(lookup.targets, url.path)
    if (!site || url.path !== `${site.pathPrefix}/${MCP_PATH}`) return false
    const files = await this.sites.filesOf(site.deploymentId)
    if (!files) return false
    const { enabled, page } = await files.lookup((lookup) => ({
      enabled: lookup.get(MCP_PAGES_PATH) !== undefined,
      page: lookup.get(`${MCP_PATH}/index.html`) !== undefined,
    }))
    const reading = request.method === 'GET' || request.method === 'HEAD'
    if (reading && (!enabled || page)) return false
    if (site.preview) response.setHeader('x-robots-tag', 'noindex')
    if (!enabled) {
      sendJsonRpcError(response, 404, -32601, 'This docs site has turned its MCP server off (mcp.enabled)')
      return true
    }
    if (request.method === 'POST') {
      // One call counted before the body is read, so a client over its limit costs no parsing.
      const limited = await this.#limit.take(request)
      if (limited) {
        sendRateLimited(response, limited.retryAfterSeconds)
        return true
      }
    }
    const mcpSite: McpSite = {
      base: `${site.origin}${site.pathPrefix}`,
      // The rest of a batch's calls, after the one counted above.
      admit: (calls) => (calls > 1 ? this.#limit.take(request, calls - 1) : undefined),
      read: async (path) => {
        const entry = await files.get(path)
        if (!entry) return undefined
        let bytes = this.#bytes.get(entry.sha256)
        if (!bytes) {
          bytes = await this.blobs.get(entry.sha256)
          if (!bytes) return undefined
          this.#bytes.set(entry.sha256, bytes)
        }
        return bytes
      },
    }
    await answerMcp(request, response, mcpSite)
    return true
  }
}
