/**
 * The hot path: Host + path → bytes. Runs as a plain Node request handler (app.ts hands site hosts
 * here before Fastify routing), reads only the in-memory caches, the site manifest and the blob store.
 *
 * URLs are routed by serving/router.ts, the same router as `docsctl dev`. Pages carry the
 * build's Content-Security-Policy; SVG, XML and HTML files that are not pages are sandboxed.
 */
import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { LRUCache } from 'lru-cache'
import { requestedAssetVersion } from '../../compiler/content/asset-version.js'
import {
  createRedirectMatcher,
  isAbsoluteUrl,
  parseRedirectsFile,
  REDIRECTS_FILE,
  type RedirectMatcher,
} from '../../compiler/redirects.js'
import { isActiveContent, SANDBOXED_FILE_POLICY } from '../../compiler/security-headers.js'
import { withBaseHref } from '../../serving/not-found.js'
import { parseSiteUrl, routeSitePath, wantsMarkdown } from '../../serving/router.js'
import type { BlobStore } from '../blobs/store.js'
import type { SiteFileEntry } from '../builds/site-manifest.js'
import { type ManifestEntries, parseManifestHead, parseManifestShard } from '../builds/site-manifest-store.js'
import type { ServerConfig } from '../config.js'
import type { Repositories } from '../db/repositories/index.js'
import { outageMessage, outageRetryAfterSeconds, unavailableDependency } from '../errors.js'
import { cacheTags, etagMatches, siteCacheControl } from './cache-headers.js'
import { readSiteHeaders, type SiteRequestHeaders } from './host-header.js'
import { missingSite } from './missing-site.js'
import { HostResolver, pickTarget, type SiteTarget } from './resolve-host.js'
import { SiteFiles } from './site-files.js'
import { disallowedPaths, pageUrlPath, renderRobots, renderSitemap } from './sitemap.js'

/** Files bigger than this are streamed from the blob store instead of cached in memory. */
const maxCachedFile = 1024 * 1024

/**
 * How many of a project's newest deployments a versioned URL (`?v=`) is looked up in when the live one
 * has other bytes at that path: a page a reader loaded before the last few promotions still gets its
 * own images and stylesheets. Older than that, or kept no longer by garbage collection, the live file.
 */
const versionedLookback = 10

/** A file that is not a page: one a browser would run script in is sandboxed. */
const fileHeaders = (entry: SiteFileEntry): Record<string, string> =>
  isActiveContent(entry.contentType) ? { 'content-security-policy': SANDBOXED_FILE_POLICY } : {}

type Encoding = 'br' | 'gzip' | 'identity'

/** What a site answer depends on besides its deployment: host, URL, encodings and markdown preference. */
function preparedKey(site: SiteTarget, url: string | undefined, headers: SiteRequestHeaders): string {
  const markdown = headers.accept?.includes('text/markdown') ? 'md' : ''
  return `${site.deploymentId}\n${headers.host}\n${url}\n${headers.acceptEncoding ?? ''}\n${markdown}`
}

function preferredEncoding(header: string | undefined, entry: SiteFileEntry): Encoding {
  if (!header) return 'identity'
  if (entry.br && /\bbr\b(?!;q=0(\.0*)?\b)/.test(header)) return 'br'
  if (entry.gzip && /\bgzip\b(?!;q=0(\.0*)?\b)/.test(header)) return 'gzip'
  return 'identity'
}

/** A finished answer kept for the next identical request: status, headers and body, written at once. */
interface PreparedResponse {
  status: number
  headers: Record<string, string | number>
  /** The same headers as a flat [name, value, …] list: the cheapest form for writeHead. */
  rawHeaders: (string | number)[]
  body: Buffer
  etag: string
}

const preparedOverhead = 1024

/** What the metrics learn of site answers (server/ops/metrics.ts); called on the hot path, so cheap. */
export interface SiteAnswerObserver {
  /** A site answer was written: its status and how long it took, in seconds. */
  answered(status: number, seconds: number): void
  /** A GET of a resolved site found a prepared answer (hit) or did not (miss). */
  cacheLookup(hit: boolean): void
}

/**
 * An endpoint every site answers on its own path before its files: each site's MCP server
 * (server/mcp), the reader-events endpoint (server/insights). app.ts hands them over, so this module
 * never imports what it serves.
 */
export interface SiteEndpoint {
  /** A cheap first look at the URL alone, on the hot path: false leaves the request to the site's files. */
  mayAnswer(url: string | undefined): boolean
  /** Answers the request and returns true; false leaves it to the site's files. */
  answer(request: IncomingMessage, response: ServerResponse): Promise<boolean>
}

/** What a site endpoint reads through the site server: the sites of a host, and deployments' files. */
export interface SiteLookup {
  hosts: HostResolver
  filesOf(deploymentId: string): Promise<SiteFiles | undefined>
}

/** A manifest cache entry: a deployment's files (by `deployment id`) or a shard (by `shard sha256`). */
type CachedManifestPart = { files: SiteFiles; bytes: number } | { shard: ManifestEntries; bytes: number }

export class SiteServer {
  readonly hosts: HostResolver
  /**
   * Manifest heads by deployment and manifest shards by sha256, held as their bytes and bounded by them
   * (a 1,000-page site's manifest is ~700 KB in all, a shard ~45 KB).
   */
  readonly #manifests: LRUCache<string, CachedManifestPart>
  /** Manifest parts being loaded, by the key they are cached under. */
  readonly #loading = new Map<string, Promise<unknown>>()
  /** docs.json redirects of a deployment, by the sha256 of its `_redirects` file. */
  readonly #redirectRules = new LRUCache<string, RedirectMatcher>({ max: 256 })
  readonly #files: LRUCache<string, Buffer>
  /**
   * Keyed by deployment, host, URL and the request headers the answer varies on. A hit costs one Map
   * lookup and one writeHead: no routing, no header building, no await.
   */
  readonly #prepared: LRUCache<string, PreparedResponse>
  /** Told of every site answer: its status, the seconds it took, and whether a prepared answer was found. */
  observer: SiteAnswerObserver = { answered: () => {}, cacheLookup: () => {} }
  /** Where unexpected failures go; app.ts points this at the server's logger. */
  onError: (error: unknown, request: IncomingMessage) => void = () => {}
  /** sitemap.xml and robots.txt, made per deployment and request host. */
  readonly #hostFiles = new LRUCache<string, { body: Buffer; etag: string }>({ max: 512 })
  /** `<site>/mcp`, `<site>/_docs/events`: answered before the site's files, the first that may answer. */
  readonly #endpoints: readonly SiteEndpoint[]

  constructor(
    private readonly config: ServerConfig,
    private readonly repos: Repositories,
    private readonly blobs: BlobStore,
    endpoints: (sites: SiteLookup) => readonly SiteEndpoint[],
  ) {
    this.hosts = new HostResolver(config, repos)
    this.#manifests = new LRUCache({
      maxSize: Math.max(1, config.manifestCacheBytes),
      sizeCalculation: (cached) => Math.max(1, cached.bytes),
    })
    this.#endpoints = endpoints({
      hosts: this.hosts,
      filesOf: (deploymentId) => this.#filesOf(deploymentId),
    })
    // Half the memory budget for file bytes, half for prepared answers (which mostly share those bytes).
    const half = Math.max(1, Math.floor(config.memoryCacheBytes / 2))
    this.#files = new LRUCache<string, Buffer>({
      maxSize: half,
      sizeCalculation: (bytes) => Math.max(1, bytes.length),
    })
    this.#prepared = new LRUCache<string, PreparedResponse>({
      maxSize: half,
      sizeCalculation: (prepared) => prepared.body.length + preparedOverhead,
    })
  }

  /**
   * Node request handler; never throws (an outage of the database or the blob store is a 503 naming
   * it, anything else unexpected a plain 500 without details). app.ts
   * passes the headers it already read; a repeated request is answered from the prepared-answer cache
   * without building `request.headers`, routing or awaiting anything.
   */
  handle = (
    request: IncomingMessage,
    response: ServerResponse,
    headers: SiteRequestHeaders = readSiteHeaders(request.rawHeaders),
  ): void => {
    const started = performance.now()
    const url = request.url
    // Endpoints first, each on its own path: `<site>/mcp` is a JSON-RPC endpoint, not a file of the deployment.
    const endpoint = this.#endpoints.find((candidate) => candidate.mayAnswer(url))
    if (endpoint) {
      this.#settle(
        request,
        response,
        started,
        endpoint
          .answer(request, response)
          .then((answered) => (answered ? undefined : this.#serve(request, response))),
      )
      return
    }
    if (request.method === 'GET' || request.method === 'HEAD') {
      const targets = this.hosts.peek(headers.host)
      const site = targets && pickTarget(targets, url ?? '/')
      if (site) {
        const prepared = this.#prepared.get(preparedKey(site, url, headers))
        this.observer.cacheLookup(prepared !== undefined)
        if (prepared) {
          const status = this.#writePrepared(request, response, prepared, headers.ifNoneMatch)
          this.observer.answered(status, (performance.now() - started) / 1000)
          return
        }
      }
    }
    this.#settle(request, response, started, this.#serve(request, response))
  }

  /**
   * A failure is logged; the database or the blob store away for now is a 503 with `Retry-After` that
   * names which (a CDN serves its stale copy meanwhile), anything else a plain 500 without details.
   */
  #settle(
    request: IncomingMessage,
    response: ServerResponse,
    started: number,
    answering: Promise<void>,
  ): void {
    response.once('finish', () =>
      this.observer.answered(response.statusCode, (performance.now() - started) / 1000),
    )
    answering.catch((error: unknown) => {
      this.onError(error, request)
      if (response.headersSent) return void response.destroy()
      const dependency = unavailableDependency(error)
      if (dependency) {
        return this.#text(response, 503, `${outageMessage(dependency, error)}\n`, {
          'retry-after': String(outageRetryAfterSeconds),
          'cache-control': 'no-store',
        })
      }
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
      response.end('Internal error\n')
    })
  }

  async #serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    response.setHeader('x-content-type-options', 'nosniff')
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return this.#text(response, 405, 'Only GET and HEAD are served on a docs site\n', {
        allow: 'GET, HEAD',
      })
    }
    const host = (request.headers.host ?? '').toLowerCase()
    const lookup = await this.hosts.resolve(host)
    if ('missing' in lookup) return this.#hostMissing(request, response)
    const url = parseSiteUrl(request.url ?? '/')
    if ('invalid' in url) return this.#text(response, 400, `${url.invalid}\n`)
    const { query } = url
    let path = url.path
    // A custom domain may mount several projects under different prefixes: the longest that holds the path.
    const site = pickTarget(lookup.targets, path)
    if (!site) return this.#hostMissing(request, response)
    if (site.preview) response.setHeader('x-robots-tag', 'noindex')
    const files = await this.#filesOf(site.deploymentId)
    if (!files)
      return this.#text(response, 404, 'This deployment has no files\n', { 'cache-control': 'no-store' })

    if (site.pathPrefix) {
      if (path === site.pathPrefix) return this.#redirect(response, site, `${site.pathPrefix}/${query}`)
      path = path.slice(site.pathPrefix.length)
    }
    const base = `${site.origin}${site.pathPrefix}`
    const key = path.slice(1)

    if (key === 'sitemap.xml' || key === 'robots.txt')
      return this.#hostFile(request, response, site, files, base, key)

    // An author file a page references with its content's version: the bytes of that version, from the
    // live deployment or one of the project's recent ones, so a page never mixes in the next one's file.
    const version = requestedAssetVersion(query)
    if (version !== undefined) {
      const versioned = await this.#versionedFile(site, files, key, version)
      if (versioned)
        return this.#file(request, response, site, versioned, fileHeaders(versioned), 200, 'immutable')
    }
    const redirects = await this.#redirectsOf(files)
    // One look at the files for the route and every entry its answer needs.
    const { route, entry, markdown, llms } = await files.lookup((lookup) => {
      const route = routeSitePath(key, query, { has: (file) => lookup.get(file) !== undefined }, redirects)
      if (route.type !== 'page' && route.type !== 'file') return { route }
      return {
        route,
        entry: lookup.get(route.path),
        markdown: route.type === 'page' && route.markdown ? lookup.get(route.markdown) : undefined,
        llms: route.type === 'page' ? lookup.get('llms.txt') !== undefined : false,
      }
    })
    switch (route.type) {
      case 'page':
        return this.#page(
          request,
          response,
          site,
          files,
          { path: route.path, html: entry!, markdown },
          llms === true,
          base,
        )
      case 'file':
        return this.#file(request, response, site, entry!, fileHeaders(entry!))
      case 'redirect':
        return this.#redirect(
          response,
          site,
          isAbsoluteUrl(route.location) ? route.location : `${site.pathPrefix}${route.location}`,
          route.status,
        )
      case 'not-found':
        return this.#notFound(request, response, site, files)
    }
  }

  /** An HTML page, or its markdown export for `Accept: text/markdown`. */
  async #page(
    request: IncomingMessage,
    response: ServerResponse,
    site: SiteTarget,
    files: SiteFiles,
    page: { path: string; html: SiteFileEntry; markdown: SiteFileEntry | undefined },
    hasLlmsTxt: boolean,
    base: string,
  ): Promise<void> {
    const urlPath = pageUrlPath(page.path) ?? ''
    const { html, markdown } = page
    // The answer varies on Accept only when there is Markdown to negotiate, on Accept-Encoding only
    // when a compressed copy exists: every other Vary would split a shared cache's copies for nothing.
    const vary = [
      ...(markdown ? ['Accept'] : []),
      ...([html, markdown].some((entry) => entry?.br || entry?.gzip) ? ['Accept-Encoding'] : []),
    ]
    const headers: Record<string, string> = { vary: vary.join(', ') }
    const links = [`<${base}/${encodeURI(urlPath)}>; rel="canonical"`]
    if (hasLlmsTxt) links.push(`<${base}/llms.txt>; rel="llms-txt"`)
    headers.link = links.join(', ')
    if (markdown && wantsMarkdown(request.headers.accept)) {
      return this.#file(request, response, site, markdown, headers)
    }
    headers['content-security-policy'] = files.pagePolicy
    return this.#file(request, response, site, html, headers)
  }

  async #file(
    request: IncomingMessage,
    response: ServerResponse,
    site: SiteTarget,
    entry: SiteFileEntry,
    extra: Record<string, string>,
    status = 200,
    lifetime: 'immutable' | 'revalidate' = status === 200 && entry.immutable ? 'immutable' : 'revalidate',
  ): Promise<void> {
    const encoding = preferredEncoding(request.headers['accept-encoding'], entry)
    const variant = encoding === 'identity' ? entry : (entry[encoding] ?? entry)
    const etag = `"${entry.sha256.slice(0, 32)}${encoding === 'identity' ? '' : `-${encoding}`}"`
    const headers: Record<string, string | number> = {
      'content-type': entry.contentType,
      'x-content-type-options': 'nosniff',
      etag,
      ...cacheTags(site),
      'cache-control': siteCacheControl(this.config, site, lifetime),
    }
    if (site.preview) headers['x-robots-tag'] = 'noindex'
    const vary = extra.vary ?? (entry.br || entry.gzip ? 'Accept-Encoding' : undefined)
    if (vary) headers.vary = vary
    for (const [name, value] of Object.entries(extra)) if (name !== 'vary') headers[name] = value
    if (variant !== entry) headers['content-encoding'] = encoding
    headers['content-length'] = variant.size

    let body = this.#files.get(variant.sha256)
    if (!body && variant.size > maxCachedFile) {
      if (status === 200 && etagMatches(request.headers['if-none-match'], etag))
        return this.#notModified(response, headers)
      const stream = await this.blobs.stream(variant.sha256)
      if (!stream) return this.#text(response, 500, 'A file of this deployment is missing from storage\n')
      response.writeHead(status, headers)
      if (request.method === 'HEAD') return void response.end()
      stream.on('error', () => response.destroy())
      stream.pipe(response)
      return
    }
    if (!body) {
      body = await this.blobs.get(variant.sha256)
      if (!body) return this.#text(response, 500, 'A file of this deployment is missing from storage\n')
      this.#files.set(variant.sha256, body)
    }
    const prepared: PreparedResponse = {
      status,
      headers,
      rawHeaders: Object.entries(headers).flat(),
      body,
      etag,
    }
    const asked = readSiteHeaders(request.rawHeaders)
    this.#prepared.set(preparedKey(site, request.url, asked), prepared)
    this.#writePrepared(request, response, prepared, asked.ifNoneMatch)
  }

  /** Writes a prepared answer (or 304 when the client has it) and returns the status written. */
  #writePrepared(
    request: IncomingMessage,
    response: ServerResponse,
    prepared: PreparedResponse,
    ifNoneMatch: string | undefined,
  ): number {
    if (prepared.status === 200 && etagMatches(ifNoneMatch, prepared.etag)) {
      this.#notModified(response, prepared.headers)
      return 304
    }
    response.writeHead(prepared.status, prepared.rawHeaders)
    response.end(request.method === 'HEAD' ? undefined : prepared.body)
    return prepared.status
  }

  #notModified(response: ServerResponse, headers: Record<string, string | number>): void {
    const { 'content-length': _length, 'content-type': _type, ...rest } = headers
    response.writeHead(304, rest)
    response.end()
  }

  async #notFound(request: IncomingMessage, response: ServerResponse, site: SiteTarget, files: SiteFiles) {
    const page = await files.get('404.html')
    const bytes = page ? await this.blobs.get(page.sha256) : undefined
    if (!bytes) return this.#text(response, 404, 'Page not found\n')
    // 404.html links relative to the site root; a <base> keeps them working at any depth of missing path.
    const body = Buffer.from(withBaseHref(bytes.toString('utf8'), `${site.pathPrefix}/`))
    response.writeHead(404, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.length,
      // Not kept by a shared cache (no s-maxage): a push may add the page at any time.
      'cache-control': `${site.preview ? 'private' : 'public'}, max-age=0, must-revalidate`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': files.pagePolicy,
    })
    response.end(request.method === 'HEAD' ? undefined : body)
  }

  /** An address that serves nothing, whatever the reason: one answer, never cached (see missing-site.ts). */
  #hostMissing(request: IncomingMessage, response: ServerResponse) {
    response.writeHead(missingSite.status, missingSite.headers)
    response.end(request.method === 'HEAD' ? undefined : missingSite.body)
  }

  async #hostFile(
    request: IncomingMessage,
    response: ServerResponse,
    site: SiteTarget,
    files: SiteFiles,
    base: string,
    key: 'sitemap.xml' | 'robots.txt',
  ): Promise<void> {
    const cacheKey = `${site.deploymentId} ${base} ${key} ${site.preview}`
    let sitemap = this.#hostFiles.get(cacheKey)
    if (!sitemap) {
      const robotsEntry = await files.get('robots.txt')
      const robots = robotsEntry ? (await this.blobs.get(robotsEntry.sha256))?.toString('utf8') : undefined
      const text =
        key === 'sitemap.xml'
          ? renderSitemap(await files.paths(), base, disallowedPaths(robots), await this.#redirectsOf(files))
          : renderRobots(robots, base, site.pathPrefix, site.preview)
      const body = Buffer.from(text)
      sitemap = { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` }
      this.#hostFiles.set(cacheKey, sitemap)
    }
    response.setHeader(
      'content-type',
      key === 'sitemap.xml' ? 'application/xml; charset=utf-8' : 'text/plain; charset=utf-8',
    )
    response.setHeader('etag', sitemap.etag)
    response.setHeader('cache-control', siteCacheControl(this.config, site, 'revalidate'))
    for (const [name, value] of Object.entries(cacheTags(site))) response.setHeader(name, value)
    if (etagMatches(request.headers['if-none-match'], sitemap.etag)) {
      response.writeHead(304)
      response.end()
      return
    }
    response.setHeader('content-length', sitemap.body.length)
    response.writeHead(200)
    response.end(request.method === 'HEAD' ? undefined : sitemap.body)
  }

  /**
   * The file at `key` whose sha256 starts with `version`: the live deployment's, else the newest of the
   * project's recent deployments that were once live that has it and whose bytes the blob store still
   * holds. Only this project's deployments are read, so no URL reaches another project's files, and no
   * preview's (which may be behind a preview token). Undefined: none has it,
   * and the request is answered as if it had no version (the live file, revalidated, never immutable).
   */
  async #versionedFile(
    site: SiteTarget,
    live: SiteFiles,
    key: string,
    version: string,
  ): Promise<SiteFileEntry | undefined> {
    const matches = (entry: SiteFileEntry | undefined): entry is SiteFileEntry =>
      entry?.sha256.startsWith(version) === true
    const current = await live.get(key)
    if (matches(current)) return current
    const { deployments } = await this.repos.deployments.list(site.projectId, versionedLookback)
    for (const deployment of deployments) {
      // Only deployments that were live: a preview's files may be behind a preview token.
      if (deployment.id === site.deploymentId || deployment.live_at === null) continue
      const earlier = await (await this.#filesOf(deployment.id))?.get(key)
      if (matches(earlier) && (await this.blobs.has(earlier.sha256))) return earlier
    }
    return undefined
  }

  /** A deployment's files: its manifest's head, its shards read as lookups need them. */
  async #filesOf(deploymentId: string): Promise<SiteFiles | undefined> {
    const key = `deployment ${deploymentId}`
    const cached = this.#manifests.get(key)
    if (cached && 'files' in cached) return cached.files
    return this.#loadOnce(key, async () => {
      const row = await this.repos.deployments.findById(deploymentId)
      if (!row?.site_manifest_sha256) return undefined
      const bytes = await this.blobs.get(row.site_manifest_sha256)
      if (!bytes) return undefined
      // Manifests of ready deployments never change, so they stay cached until evicted.
      const files = new SiteFiles(parseManifestHead(bytes), {
        peek: (sha256) => {
          const part = this.#manifests.get(`shard ${sha256}`)
          return part && 'shard' in part ? part.shard : undefined
        },
        load: (sha256) =>
          this.#loadOnce(`shard ${sha256}`, async () => {
            const shardBytes = await this.blobs.get(sha256)
            if (!shardBytes)
              throw new Error(`shard ${sha256} of manifest ${row.site_manifest_sha256} is missing`)
            const shard = parseManifestShard(shardBytes)
            this.#manifests.set(`shard ${sha256}`, { shard, bytes: shard.bytes })
            return shard
          }),
      })
      this.#manifests.set(key, { files, bytes: bytes.length })
      return files
    })
  }

  /**
   * One load per manifest part at a time: readers that miss together (all of them, right after a
   * promotion) wait for the same read of the blob store and the same parse.
   */
  #loadOnce<T>(key: string, load: () => Promise<T>): Promise<T> {
    let loading = this.#loading.get(key) as Promise<T> | undefined
    if (!loading) {
      loading = load().finally(() => this.#loading.delete(key))
      this.#loading.set(key, loading)
    }
    return loading
  }

  /** The deployment's docs.json redirects, read from the `_redirects` file its build wrote. */
  async #redirectsOf(files: SiteFiles): Promise<RedirectMatcher | undefined> {
    const entry = await files.get(REDIRECTS_FILE)
    if (!entry) return undefined
    const cached = this.#redirectRules.get(entry.sha256)
    if (cached) return cached
    const bytes = await this.blobs.get(entry.sha256)
    if (!bytes) return undefined
    const matcher = createRedirectMatcher(parseRedirectsFile(bytes.toString('utf8')))
    this.#redirectRules.set(entry.sha256, matcher)
    return matcher
  }

  /** A redirect of a deployment: cached and purged like its pages. */
  #redirect(
    response: ServerResponse,
    site: SiteTarget,
    location: string,
    status: 301 | 307 | 308 = 301,
  ): void {
    response.writeHead(status, {
      location,
      'cache-control': siteCacheControl(this.config, site, 'revalidate'),
      ...cacheTags(site),
      'content-length': 0,
    })
    response.end()
  }

  #text(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    const bytes = Buffer.from(body)
    response.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': bytes.length,
      ...headers,
    })
    response.end(bytes)
  }
}
