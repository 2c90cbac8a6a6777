/**
 * The `docsctl dev` preview: compiles each page when it is requested (the same `buildSite` as a
 * deployment, with `only`), keeps rendered pages in the build cache, watches the folder and tells
 * open tabs to reload through server-sent events. Site-wide files (search index, llms.txt) come from
 * a full build made on first request and redone after a change. `/mcp` is the site's MCP server, the
 * same as a deployment's (serving/mcp.ts), over that full build.
 */
import { watch } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, sep } from 'node:path'
import { buildSite, defaultWorkers } from '../../compiler/build.js'
import { loadConfig, siteRedirects } from '../../compiler/config/index.js'
import { type Diagnostic, formatDiagnostic, hasErrors } from '../../compiler/diagnostics.js'
import { isSafeRelativePath } from '../../compiler/files.js'
import { MCP_PAGES_PATH } from '../../compiler/outputs/mcp-pages.js'
import {
  createRedirectMatcher,
  folderIndexRedirects,
  parseRedirectsFile,
  REDIRECTS_FILE,
  type RedirectMatcher,
} from '../../compiler/redirects.js'
import {
  inlineScriptsOfHead,
  isActiveContent,
  SANDBOXED_FILE_POLICY,
  sitePagePolicy,
} from '../../compiler/security-headers.js'
import { themeFiles } from '../../compiler/theme/assets.js'
import { scopeRootStylesheetBytes } from '../../compiler/theme/scope-stylesheet.js'
import { siteStylesheets } from '../../compiler/theme/tailwind.js'
import type { BuildCache, BuildResult } from '../../compiler/types.js'
import { withValidateSeverity } from '../../compiler/validate.js'
import { loadSiteFileFilter, readSiteFiles } from '../../lib/site-dir.js'
import { contentTypeOf } from '../../serving/content-type.js'
import { answerMcp, MCP_PATH, sendJsonRpcError } from '../../serving/mcp.js'
import { withBaseHref } from '../../serving/not-found.js'
import { READER_EVENTS_PATH } from '../../serving/reader-events.js'
import {
  pageSlugOf,
  parseSiteUrl,
  routeSitePath,
  type SiteFileIndex,
  wantsMarkdown,
} from '../../serving/router.js'
import { fetchRemoteSpecs, type SpecFetchPolicy } from '../remote-specs.js'
import { renderErrorPage } from './error-page.js'
import { EVENTS_PATH, injectLiveReload, LiveReload, liveReloadSource } from './live-reload.js'
import { injectErrorOverlay } from './overlay.js'

export interface DevServerOptions {
  dir: string
  port: number
  host?: string
  /** Where progress and diagnostics go (the terminal). */
  log: (line: string) => void
  /** Which hosts the OpenAPI documents docs.json names may be fetched from (none when absent). */
  specs?: SpecFetchPolicy
}

export interface DevServer {
  url: string
  close(): Promise<void>
}

/** Sources that are compiled, never served as they are. */
const isSource = (path: string): boolean => /\.(mdx?|json)$/.test(path)

/** Files a browser requests of a site on its own (the tab's icon, a home-screen icon): never a build's output. */
const BROWSER_OWN_REQUEST = /^(?:favicon\.ico|apple-touch-icon(?:-precomposed)?(?:-\d+x\d+)?\.png)$/

class DevSite {
  files = new Map<string, Uint8Array>()
  #cache: BuildCache | undefined
  #full: Promise<BuildResult> | undefined
  #queue: Promise<unknown> = Promise.resolve()
  #reported = new Set<string>()
  /** Each page's HTML as it last built without errors: what the error overlay sits on. */
  readonly lastGood = new Map<string, Uint8Array>()

  constructor(private readonly log: (line: string) => void) {}

  /** Errors that stop the preview: docs.json missing or structurally invalid. */
  configErrors(): Diagnostic[] {
    return loadConfig(this.files, { mode: 'lenient' }).diagnostics.filter((d) => d.severity === 'error')
  }

  /** docs.json's problems as `validate` reports them (strictly, with its did-you-means), for the error page. */
  configDiagnostics(): Diagnostic[] {
    return loadConfig(this.files, { mode: 'strict' }).diagnostics
  }

  firstPage(): string | undefined {
    const navigation = loadConfig(this.files, { mode: 'lenient' }).navigation
    return navigation?.pages.find((location) => !location.hidden)?.slug
  }

  /**
   * Redirects as a deployment serves them: docs.json's, then `/guide/index` → `/guide/` for folder
   * pages, then, once a full build has run, the rest its `_redirects` holds (generated API pages
   * that moved to the platform's URL scheme).
   */
  redirects(built?: ReadonlyMap<string, Uint8Array>): RedirectMatcher {
    const own = siteRedirects(this.files)
    const slugs = [...this.files.keys()].flatMap((path) => {
      const page = /^(.+)\.mdx?$/.exec(path)
      return page ? [page[1]!] : []
    })
    const generated = built?.get(REDIRECTS_FILE)
    return createRedirectMatcher([
      ...own.rules,
      ...folderIndexRedirects(slugs),
      ...(generated ? parseRedirectsFile(new TextDecoder().decode(generated)) : []),
    ])
  }

  isPage = (slug: string): boolean => this.files.has(`${slug}.mdx`) || this.files.has(`${slug}.md`)

  /** A page at this URL path (`guide` for `/guide/`): the page itself, or its folder's own page. */
  hasPageAt = (slug: string): boolean => this.isPage(slug) || this.isPage(`${slug}/index`)

  /** The site files known without a full build: pages and their exports, theme and author files. */
  readonly quickIndex: SiteFileIndex = {
    has: (path) => {
      if (themeFiles().files.has(path)) return true
      const slug = pageSlugOf(path)
      if (slug !== undefined) return this.hasPageAt(slug)
      if (path.endsWith('.md') && this.isPage(path.slice(0, -3))) return true
      return this.files.has(path) && !isSource(path)
    },
  }

  /** The bytes of a site file that is not a page. */
  async file(path: string): Promise<Uint8Array | undefined> {
    const theme = themeFiles().files.get(path)
    if (theme) return theme
    if (path.endsWith('.md') && this.isPage(path.slice(0, -3)))
      return (await this.page(path.slice(0, -3))).files.get(path)
    const source = this.files.get(path)
    // A root stylesheet is served as a build publishes it: scoped to the article.
    const roots = source ? siteStylesheets(this.files.keys()) : []
    if (source && roots.includes(path)) return scopeRootStylesheetBytes(source, roots)
    if (source && !isSource(path)) return source
    return (await this.full()).files.get(path)
  }

  /** Builds run one at a time so each starts from the cache the previous one left. */
  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work)
    this.#queue = next.catch(() => undefined)
    return next
  }

  async page(slug: string): Promise<BuildResult> {
    return this.#serial(async () => {
      // Pages are checked as `validate` checks them (an unknown component is an error), docs.json as
      // leniently as the rest of the preview: a docs.json warning never hides the site.
      const result = await buildSite(this.files, {
        mode: 'strict',
        configMode: 'lenient',
        only: [slug],
        ...(this.#cache ? { cache: this.#cache } : {}),
      })
      this.#cache = result.cache
      this.#report(result.diagnostics.map((d) => (d.file.endsWith('.json') ? d : withValidateSeverity(d))))
      return result
    })
  }

  full(): Promise<BuildResult> {
    this.#full ??= this.#serial(async () => {
      const result = await buildSite(this.files, {
        mode: 'lenient',
        workers: defaultWorkers(),
        ...(this.#cache ? { cache: this.#cache } : {}),
      })
      this.#cache = result.cache
      return result
    })
    return this.#full
  }

  changed(): void {
    this.#full = undefined
  }

  /** Prints each diagnostic once per change, not on every request. */
  #report(diagnostics: readonly Diagnostic[]): void {
    for (const diagnostic of diagnostics) {
      const line = `${diagnostic.severity} ${formatDiagnostic(diagnostic)}`
      if (this.#reported.has(line)) continue
      this.#reported.add(line)
      this.log(line)
    }
  }

  resetReported(): void {
    this.#reported.clear()
  }
}

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const site = new DevSite(options.log)
  const initial = await readSiteFiles(options.dir).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `cannot read the docs folder ${options.dir}: ${error.code === 'ENOENT' ? 'it does not exist' : error.message}`,
    )
  })
  site.files = initial.files
  for (const problem of initial.problems) options.log(`warning ${problem}`)
  // Specs docs.json names by URL are fetched once per \`docsctl dev\` and kept across re-reads.
  const specs = options.specs ?? { allowedHosts: [] }
  for (const problem of await fetchRemoteSpecs(site.files, specs)) options.log(`warning ${problem}`)
  const fetchedSpecs = [...site.files].filter(([path]) => path.startsWith('_openapi/'))
  const reload = new LiveReload()
  reportConfig(site, options.log, true)

  const server = createServer((request, response) => {
    handle(site, reload, request, response).catch((error: unknown) => {
      options.log(`error ${error instanceof Error ? error.message : String(error)}`)
      if (!response.headersSent)
        send(
          response,
          500,
          'text/plain; charset=utf-8',
          'The preview failed to build this page; see the terminal.',
        )
      else response.end()
    })
  })

  // A changed file counts only when `readSiteFiles` would read it: dot-files, node_modules and what
  // .docsignore lists stay out of the preview, as they stay out of a push.
  let isSiteFile = await loadSiteFileFilter(options.dir)
  // Node's recursive watcher rather than chokidar: in testing, chokidar 5 dropped the second of two
  // quick saves to one file (its per-file throttle), which left the preview showing stale content.
  const watcher = watch(options.dir, { recursive: true })
  // Changed paths are collected and read together a moment after the last event: an editor's save
  // is often several writes (truncate, write, rename), and reading at the first would see half a file.
  const changedPaths = new Set<string>()
  let pending: NodeJS.Timeout | undefined
  const applyChanges = async () => {
    const paths = [...changedPaths]
    changedPaths.clear()
    if (paths.includes('.docsignore')) {
      isSiteFile = await loadSiteFileFilter(options.dir)
      site.files = (await readSiteFiles(options.dir)).files
      for (const [path, bytes] of fetchedSpecs) if (!site.files.has(path)) site.files.set(path, bytes)
    } else {
      for (const path of paths) {
        const absolute = join(options.dir, ...path.split('/'))
        const info = await stat(absolute).catch(() => undefined)
        if (info?.isFile()) {
          const bytes = await readFile(absolute).catch(() => undefined)
          if (bytes) site.files.set(path, new Uint8Array(bytes))
        } else {
          site.files.delete(path)
          for (const key of [...site.files.keys()]) if (key.startsWith(`${path}/`)) site.files.delete(key)
          if (info?.isDirectory()) {
            const added = await readSiteFiles(options.dir)
            for (const [key, bytes] of added.files) if (key.startsWith(`${path}/`)) site.files.set(key, bytes)
          }
        }
      }
    }
    site.changed()
    site.resetReported()
    if (paths.some((path) => path.endsWith('.json'))) reportConfig(site, options.log, false)
    reload.reload()
  }
  watcher.on('error', (error) => {
    options.log(
      `warning file watching failed, reload by hand: ${error instanceof Error ? error.message : String(error)}`,
    )
  })
  watcher.on('change', (_event, filename) => {
    const path = String(filename).split(sep).join('/')
    if (!path || !isSafeRelativePath(path) || (path !== '.docsignore' && !isSiteFile(path))) return
    changedPaths.add(path)
    clearTimeout(pending)
    pending = setTimeout(() => {
      applyChanges().catch((error: unknown) =>
        options.log(`error ${error instanceof Error ? error.message : String(error)}`),
      )
    }, 25)
  })

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(options.port, options.host ?? '127.0.0.1', () => resolve())
    })
  } catch (error) {
    // A busy port: stop the watcher too, or it alone keeps the process running after the error.
    reload.close()
    watcher.close()
    throw error
  }
  const address = server.address() as AddressInfo
  const host = address.address.includes(':') ? `[${address.address}]` : address.address
  return {
    url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${address.port}/`,
    async close() {
      clearTimeout(pending)
      reload.close()
      watcher.close()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      // Browsers keep connections alive; close them so stopping never waits on an idle tab.
      server.closeAllConnections()
      await closed
    },
  }
}

function reportConfig(site: DevSite, log: (line: string) => void, first: boolean): void {
  const errors = site.configErrors()
  if (errors.length) {
    log('docs.json has errors; the preview shows them until the file is fixed:')
    for (const diagnostic of errors) log(`  error ${formatDiagnostic(diagnostic)}`)
  } else if (!first) log('docs.json is valid; reloading')
}

async function handle(site: DevSite, reload: LiveReload, request: IncomingMessage, response: ServerResponse) {
  const url = parseSiteUrl(request.url ?? '/')
  if ('invalid' in url) return send(response, 400, 'text/plain; charset=utf-8', url.invalid)
  if (url.path === EVENTS_PATH) return reload.connect(response)
  // The site's MCP server, as a deployment answers it (a page named `mcp` keeps its GET).
  if (url.path === `/${MCP_PATH}` && !(request.method === 'GET' && site.isPage(MCP_PATH))) {
    const built = (await site.full()).files
    if (built.has(MCP_PAGES_PATH)) {
      const base = `http://${request.headers.host ?? 'localhost'}`
      return answerMcp(request, response, { base, read: async (path) => built.get(path) })
    }
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return sendJsonRpcError(
        response,
        404,
        -32601,
        'This docs site has turned its MCP server off (mcp.enabled)',
      )
  }
  // Reader insights are kept by docs-server only: the preview takes the page's events and keeps none.
  if (url.path === `/${READER_EVENTS_PATH}` && request.method === 'POST') {
    request.resume()
    response.writeHead(204, { 'cache-control': 'no-store' })
    return void response.end()
  }
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed')
  const key = url.path.slice(1)

  const configErrors = site.configErrors()
  if (hasErrors(configErrors) && !key.startsWith('_assets/')) {
    return send(
      response,
      500,
      'text/html; charset=utf-8',
      renderErrorPage('docs.json has errors', site.configDiagnostics()),
    )
  }
  // A site without an index page: go straight to the first page (a deployment's index.html does the
  // same with a meta refresh), without waiting for a full build.
  if ((key === '' || key === 'index.html') && !site.isPage('index')) {
    const first = site.firstPage()
    if (first) return redirect(response, `/${first}/`)
  }

  // Pages, their exports, theme and author files are known at once; site-wide outputs (search index,
  // llms.txt, 404.html) only from a full build, made when the quick answer is "not found".
  const redirects = site.redirects()
  let route = routeSitePath(key, url.query, site.quickIndex, redirects)
  // What a browser asks for by itself is an author's file or nothing: no full build makes one, so a site
  // without it answers at once instead of rendering every page first (and holding the next request).
  if (route.type === 'not-found' && BROWSER_OWN_REQUEST.test(key))
    return send(response, 404, 'text/plain; charset=utf-8', 'Not found')
  if (route.type === 'not-found') {
    const built = (await site.full()).files
    const index = { has: (path: string) => site.quickIndex.has(path) || built.has(path) }
    route = routeSitePath(key, url.query, index, site.redirects(built))
  }
  switch (route.type) {
    case 'redirect':
      return redirect(response, route.location, route.status)
    case 'page':
      return sendPage(site, request, response, route)
    case 'file': {
      const bytes = await site.file(route.path)
      if (!bytes) return send(response, 404, 'text/plain; charset=utf-8', 'Not found')
      const type = contentTypeOf(route.path)
      const headers = isActiveContent(type) ? { 'content-security-policy': SANDBOXED_FILE_POLICY } : {}
      return send(response, 200, type, bytes, headers)
    }
    case 'not-found': {
      const notFound = (await site.full()).files.get('404.html')
      if (!notFound) return send(response, 404, 'text/plain; charset=utf-8', 'Not found')
      const html = withBaseHref(new TextDecoder().decode(notFound), '/')
      return send(response, 404, 'text/html; charset=utf-8', injectLiveReload(html), devPolicy(html))
    }
  }
}

/** A page compiled on request, or its Markdown export when the request prefers Markdown. */
async function sendPage(
  site: DevSite,
  request: IncomingMessage,
  response: ServerResponse,
  route: { path: string; markdown?: string },
) {
  const path = pageSlugOf(route.path) ?? 'index'
  // A folder's own page (`guide/index.mdx`) is served at `/guide/`, as the build writes it.
  const slug = !site.isPage(path) && site.isPage(`${path}/index`) ? `${path}/index` : path
  const result = await site.page(slug)
  if (route.markdown && wantsMarkdown(request.headers.accept)) {
    const markdown = result.files.get(route.markdown)
    if (markdown) return send(response, 200, contentTypeOf(route.markdown), markdown)
  }
  const page = result.files.get(route.path)
  // The page's own problems, as validate reports them (docs.json's have their own page and log lines).
  const problems = result.diagnostics.filter((d) => !d.file.endsWith('.json')).map(withValidateSeverity)
  const failing = hasErrors(problems)
  if (page && !failing) site.lastGood.set(slug, page)
  const shown = failing ? (site.lastGood.get(slug) ?? page) : page
  if (!shown) {
    const own = result.diagnostics.filter((d) => d.severity === 'error')
    return send(response, 500, 'text/html; charset=utf-8', renderErrorPage(`${slug} could not be built`, own))
  }
  const built = new TextDecoder().decode(shown)
  // A page with errors shows them over the page, as validate words them; warnings go with them.
  const html = failing ? injectErrorOverlay(built, problems, shown === page ? 'current' : 'last-good') : built
  return send(
    response,
    200,
    'text/html; charset=utf-8',
    injectLiveReload(html),
    devPolicy(html, result.playgroundOrigins),
  )
}

/** A deployment's page policy, plus the live reload script the preview adds. */
const devPolicy = (html: string, connectSources: readonly string[] = []): Record<string, string> => ({
  'content-security-policy': sitePagePolicy({
    inlineScripts: [...inlineScriptsOfHead(html), liveReloadSource],
    connectSources,
  }),
})

function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  })
  response.end(body)
}

function redirect(response: ServerResponse, location: string, status: 302 | 307 | 308 = 302): void {
  response.writeHead(status, { location, 'cache-control': 'no-store' })
  response.end()
}
