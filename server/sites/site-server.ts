/**
 * The hot path: Host + path → bytes. Runs as a plain Node request handler (app.ts hands site hosts
 * here before Fastify routing), reads only the in-memory caches, the site manifest and the blob store.
 *
 * URLs: a page `guide/setup/index.html` is canonical at `/guide/setup/` (the compiler's relative links
 * assume the trailing slash); `/guide/setup`, `/guide/setup.html` and `/guide/setup/index.html`
 * redirect there. `Accept: text/markdown` on a page answers its `.md` export.
 */

import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import escapeHtml from 'escape-html'
import type { BlobStore } from '../blobs/store.js'
import type { SiteFileEntry, SiteManifest } from '../builds/site-manifest.js'
import type { ServerConfig } from '../config.js'
import type { Repositories } from '../db/repositories/index.js'
import { LruCache } from './lru.js'
import { HostResolver, type SiteTarget } from './resolve-host.js'
import { disallowedPaths, pageUrlPath, renderRobots, renderSitemap } from './sitemap.js'

/** Files bigger than this are streamed from the blob store instead of cached in memory. */
const maxCachedFile = 1024 * 1024
/** `_assets/site.3f9a0c1b.css`: a content hash in the name, so the bytes at that URL never change. */
const hashedAsset = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i

type Encoding = 'br' | 'gzip' | 'identity'

/** What a site answer depends on besides its deployment: host, URL, encodings and markdown preference. */
function preparedKey(site: SiteTarget, request: IncomingMessage): string {
  const markdown = request.headers.accept?.includes('text/markdown') ? 'md' : ''
  return `${site.deploymentId}\n${request.headers.host}\n${request.url}\n${request.headers['accept-encoding'] ?? ''}\n${markdown}`
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

export class SiteServer {
  readonly hosts: HostResolver
  readonly #manifests = new LruCache<string, SiteManifest>(256)
  readonly #files: LruCache<string, Buffer>
  /**
   * Keyed by deployment, host, URL and the request headers the answer varies on. A hit costs one Map
   * lookup and one writeHead: no routing, no header building, no await.
   */
  readonly #prepared: LruCache<string, PreparedResponse>
  /** Where unexpected failures go; app.ts points this at the server's logger. */
  onError: (error: unknown, request: IncomingMessage) => void = () => {}
  /** sitemap.xml and robots.txt, made per deployment and request host. */
  readonly #hostFiles = new LruCache<string, { body: Buffer; etag: string }>(512)

  constructor(
    private readonly config: ServerConfig,
    private readonly repos: Repositories,
    private readonly blobs: BlobStore,
  ) {
    this.hosts = new HostResolver(config, repos)
    // Half the memory budget for file bytes, half for prepared answers (which mostly share those bytes).
    this.#files = new LruCache<string, Buffer>(config.memoryCacheBytes / 2, (bytes) => bytes.length)
    this.#prepared = new LruCache<string, PreparedResponse>(
      config.memoryCacheBytes / 2,
      (prepared) => prepared.body.length + preparedOverhead,
    )
  }

  /** Node request handler; never throws (an unexpected failure is a plain 500 without details). */
  handle = (request: IncomingMessage, response: ServerResponse): void => {
    if (request.method === 'GET' || request.method === 'HEAD') {
      const site = this.hosts.peek(request.headers.host ?? '')
      if (site) {
        const prepared = this.#prepared.get(preparedKey(site, request))
        if (prepared) {
          this.#writePrepared(request, response, prepared)
          return
        }
      }
    }
    this.#serve(request, response).catch((error: unknown) => {
      this.onError(error, request)
      if (!response.headersSent) {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
        response.end('Internal error\n')
      } else response.destroy()
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
    if ('missing' in lookup)
      return this.#text(response, 404, `${lookup.missing}\n`, { 'cache-control': 'no-store' })
    const site = lookup.target
    if (site.preview) response.setHeader('x-robots-tag', 'noindex')
    const manifest = await this.#manifest(site.deploymentId)
    if (!manifest)
      return this.#text(response, 404, 'This deployment has no files\n', { 'cache-control': 'no-store' })

    const rawUrl = request.url ?? '/'
    const queryAt = rawUrl.indexOf('?')
    const query = queryAt === -1 ? '' : rawUrl.slice(queryAt)
    let path: string
    try {
      path = decodeURIComponent(queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt))
    } catch {
      return this.#text(response, 400, 'Malformed percent-encoding in the path\n')
    }
    if (!path.startsWith('/') || path.includes('\0') || path.split('/').includes('..')) {
      return this.#text(response, 400, 'Invalid path\n')
    }
    if (site.pathPrefix) {
      if (path === site.pathPrefix) return this.#redirect(response, `${site.pathPrefix}/${query}`)
      if (!path.startsWith(`${site.pathPrefix}/`)) return this.#notFound(request, response, site, manifest)
      path = path.slice(site.pathPrefix.length)
    }
    const base = `${site.origin}${site.pathPrefix}`
    const key = path.slice(1)

    if (key === 'sitemap.xml' || key === 'robots.txt')
      return this.#hostFile(request, response, site, manifest, base, key)

    const prefix = site.pathPrefix
    const files = manifest.files
    if (key === '' || key.endsWith('/')) {
      const page = `${key}index.html`
      if (files[page]) return this.#page(request, response, site, manifest, page, base)
      const asFile = key.slice(0, -1)
      if (asFile && files[asFile]) return this.#redirect(response, `${prefix}/${encodeURI(asFile)}${query}`)
      return this.#notFound(request, response, site, manifest)
    }
    if (key === 'index.html' || key.endsWith('/index.html')) {
      if (files[key])
        return this.#redirect(response, `${prefix}/${encodeURI(key.slice(0, -'index.html'.length))}${query}`)
    } else if (files[key]) {
      return this.#file(request, response, site, files[key], {})
    }
    if (files[`${key}/index.html`]) return this.#redirect(response, `${prefix}/${encodeURI(key)}/${query}`)
    if (key.endsWith('.html') && files[`${key.slice(0, -5)}/index.html`]) {
      return this.#redirect(response, `${prefix}/${encodeURI(key.slice(0, -5))}/${query}`)
    }
    return this.#notFound(request, response, site, manifest)
  }

  /** An HTML page, or its markdown export for `Accept: text/markdown`. */
  async #page(
    request: IncomingMessage,
    response: ServerResponse,
    site: SiteTarget,
    manifest: SiteManifest,
    page: string,
    base: string,
  ): Promise<void> {
    const urlPath = pageUrlPath(page) ?? ''
    const headers: Record<string, string> = { vary: 'Accept, Accept-Encoding' }
    const links = [`<${base}/${encodeURI(urlPath)}>; rel="canonical"`]
    if (manifest.files['llms.txt']) links.push(`<${base}/llms.txt>; rel="llms-txt"`)
    headers.link = links.join(', ')
    const markdown = manifest.files[`${urlPath === '' ? 'index' : urlPath.slice(0, -1)}.md`]
    if (markdown && /\btext\/markdown\b/.test(request.headers.accept ?? '')) {
      return this.#file(request, response, site, markdown, headers)
    }
    const entry = manifest.files[page]
    if (entry) return this.#file(request, response, site, entry, headers)
  }

  async #file(
    request: IncomingMessage,
    response: ServerResponse,
    site: SiteTarget,
    entry: SiteFileEntry,
    extra: Record<string, string>,
    status = 200,
  ): Promise<void> {
    const encoding = preferredEncoding(request.headers['accept-encoding'], entry)
    const variant = encoding === 'identity' ? entry : (entry[encoding] ?? entry)
    const etag = `"${entry.sha256.slice(0, 32)}${encoding === 'identity' ? '' : `-${encoding}`}"`
    const headers: Record<string, string | number> = {
      'content-type': entry.contentType,
      'x-content-type-options': 'nosniff',
      etag,
      'cache-tag': `project-${site.projectId},deployment-${site.deploymentId}`,
      'surrogate-key': `project-${site.projectId} deployment-${site.deploymentId}`,
    }
    if (site.preview) headers['x-robots-tag'] = 'noindex'
    if (status === 200 && hashedAsset.test(request.url ?? '')) {
      headers['cache-control'] = 'public, max-age=31536000, immutable'
    } else {
      // Browsers revalidate every time (cheap with the ETag); a CDN may keep the page for a while and
      // is purged by Cache-Tag / Surrogate-Key when a deployment is promoted.
      headers['cache-control'] = 'public, max-age=0, must-revalidate'
      headers['cdn-cache-control'] = `public, max-age=${this.config.cdnMaxAgeSeconds}`
      headers['surrogate-control'] = `max-age=${this.config.cdnMaxAgeSeconds}`
    }
    const vary = extra.vary ?? (entry.br || entry.gzip ? 'Accept-Encoding' : undefined)
    if (vary) headers.vary = vary
    for (const [name, value] of Object.entries(extra)) if (name !== 'vary') headers[name] = value
    if (variant !== entry) headers['content-encoding'] = encoding
    headers['content-length'] = variant.size

    let body = this.#files.get(variant.sha256)
    if (!body && variant.size > maxCachedFile) {
      if (status === 200 && request.headers['if-none-match'] === etag)
        return this.#notModified(response, headers)
      const stream = this.blobs.stream(variant.sha256)
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
    this.#prepared.set(preparedKey(site, request), prepared)
    this.#writePrepared(request, response, prepared)
  }

  #writePrepared(request: IncomingMessage, response: ServerResponse, prepared: PreparedResponse): void {
    if (prepared.status === 200 && request.headers['if-none-match'] === prepared.etag) {
      this.#notModified(response, prepared.headers)
      return
    }
    response.writeHead(prepared.status, prepared.rawHeaders)
    response.end(request.method === 'HEAD' ? undefined : prepared.body)
  }

  #notModified(response: ServerResponse, headers: Record<string, string | number>): void {
    const { 'content-length': _length, 'content-type': _type, ...rest } = headers
    response.writeHead(304, rest)
    response.end()
  }

  async #notFound(
    request: IncomingMessage,
    response: ServerResponse,
    site: SiteTarget,
    manifest: SiteManifest,
  ) {
    const page = manifest.files['404.html']
    const bytes = page ? await this.blobs.get(page.sha256) : undefined
    if (!bytes) return this.#text(response, 404, 'Page not found\n')
    // 404.html links relative to the site root; a <base> keeps them working at any depth of missing path.
    const body = Buffer.from(withBase(bytes.toString('utf8'), `${site.pathPrefix}/`))
    response.writeHead(404, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.length,
      'cache-control': 'public, max-age=0, must-revalidate',
      'x-content-type-options': 'nosniff',
    })
    response.end(request.method === 'HEAD' ? undefined : body)
  }

  async #hostFile(
    request: IncomingMessage,
    response: ServerResponse,
    site: SiteTarget,
    manifest: SiteManifest,
    base: string,
    key: 'sitemap.xml' | 'robots.txt',
  ): Promise<void> {
    const cacheKey = `${site.deploymentId} ${base} ${key} ${site.preview}`
    let sitemap = this.#hostFiles.get(cacheKey)
    if (!sitemap) {
      const robotsEntry = manifest.files['robots.txt']
      const robots = robotsEntry ? (await this.blobs.get(robotsEntry.sha256))?.toString('utf8') : undefined
      const text =
        key === 'sitemap.xml'
          ? renderSitemap(manifest, base, disallowedPaths(robots))
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
    response.setHeader('cache-control', 'public, max-age=0, must-revalidate')
    response.setHeader('cdn-cache-control', `public, max-age=${this.config.cdnMaxAgeSeconds}`)
    response.setHeader('cache-tag', `project-${site.projectId},deployment-${site.deploymentId}`)
    response.setHeader('surrogate-key', `project-${site.projectId} deployment-${site.deploymentId}`)
    if (request.headers['if-none-match'] === sitemap.etag) {
      response.writeHead(304)
      response.end()
      return
    }
    response.setHeader('content-length', sitemap.body.length)
    response.writeHead(200)
    response.end(request.method === 'HEAD' ? undefined : sitemap.body)
  }

  async #manifest(deploymentId: string): Promise<SiteManifest | undefined> {
    const cached = this.#manifests.get(deploymentId)
    if (cached) return cached
    const row = await this.repos.deployments.findById(deploymentId)
    if (!row?.site_manifest_sha256) return undefined
    const bytes = await this.blobs.get(row.site_manifest_sha256)
    if (!bytes) return undefined
    // Manifests of ready deployments never change, so they stay cached until evicted.
    const parsed = JSON.parse(bytes.toString('utf8')) as SiteManifest
    // A null prototype, so a request for /constructor or /__proto__ finds no inherited "file".
    const manifest: SiteManifest = {
      ...parsed,
      files: Object.assign(Object.create(null) as SiteManifest['files'], parsed.files),
    }
    this.#manifests.set(deploymentId, manifest)
    return manifest
  }

  #redirect(response: ServerResponse, location: string): void {
    response.writeHead(301, {
      location,
      'cache-control': 'public, max-age=0, must-revalidate',
      'cdn-cache-control': `public, max-age=${this.config.cdnMaxAgeSeconds}`,
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

/** `html` with `<base href>` first in its head (or right after the doctype when it has no head tag). */
function withBase(html: string, href: string): string {
  const base = `<base href="${escapeHtml(href)}">`
  const head = /<head(\s[^>]*)?>/i.exec(html)
  if (head) return html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length)
  const doctype = /^<!doctype[^>]*>/i.exec(html)
  const at = doctype ? doctype[0].length : 0
  return html.slice(0, at) + base + html.slice(at)
}
