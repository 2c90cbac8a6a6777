/**
 * The `docsctl dev` preview: compiles each page when it is requested (the same `buildSite` as a
 * deployment, with `only`), keeps rendered pages in the build cache, watches the folder and tells
 * open tabs to reload through server-sent events. Site-wide files (search index, llms.txt) come from
 * a full build made on first request and redone after a change.
 */
import { watch } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, sep } from 'node:path'
import { lookup as mimeLookup } from 'mime-types'
import { buildSite, defaultWorkers } from '../../compiler/build.js'
import { loadConfig } from '../../compiler/config/index.js'
import { type Diagnostic, formatDiagnostic, hasErrors } from '../../compiler/diagnostics.js'
import { isSafeRelativePath } from '../../compiler/files.js'
import { themeFiles } from '../../compiler/theme/assets.js'
import { markdownOutputPath, pageOutputPath } from '../../compiler/theme/urls.js'
import type { BuildCache, BuildResult } from '../../compiler/types.js'
import { readSiteFiles } from '../site-dir.js'
import { renderErrorPage } from './error-page.js'
import { EVENTS_PATH, injectLiveReload, LiveReload } from './live-reload.js'

export interface DevServerOptions {
  dir: string
  port: number
  host?: string
  /** Where progress and diagnostics go (the terminal). */
  log: (line: string) => void
}

export interface DevServer {
  url: string
  close(): Promise<void>
}

/** Sources that are compiled, never served as they are. */
const isSource = (path: string): boolean => /\.(mdx?|json)$/.test(path)

class DevSite {
  files = new Map<string, Uint8Array>()
  #cache: BuildCache | undefined
  #full: Promise<BuildResult> | undefined
  #queue: Promise<unknown> = Promise.resolve()
  #reported = new Set<string>()

  constructor(private readonly log: (line: string) => void) {}

  /** Errors that stop the preview: docs.json missing or structurally invalid. */
  configErrors(): Diagnostic[] {
    return loadConfig(this.files, { mode: 'lenient' }).diagnostics.filter((d) => d.severity === 'error')
  }

  firstPage(): string | undefined {
    const navigation = loadConfig(this.files, { mode: 'lenient' }).navigation
    return navigation?.pages.find((location) => !location.hidden)?.slug
  }

  isPage = (slug: string): boolean => this.files.has(`${slug}.mdx`) || this.files.has(`${slug}.md`)

  /** Builds run one at a time so each starts from the cache the previous one left. */
  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work)
    this.#queue = next.catch(() => undefined)
    return next
  }

  async page(slug: string): Promise<BuildResult> {
    return this.#serial(async () => {
      const result = await buildSite(this.files, {
        mode: 'lenient',
        only: [slug],
        ...(this.#cache ? { cache: this.#cache } : {}),
      })
      this.#cache = result.cache
      this.#report(result.diagnostics)
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

  const isIgnored = (path: string) =>
    path
      .split('/')
      .some((segment) => segment === 'node_modules' || (segment.startsWith('.') && segment !== '.docsignore'))
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
    if (paths.includes('.docsignore')) site.files = (await readSiteFiles(options.dir)).files
    else {
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
    if (!path || !isSafeRelativePath(path) || isIgnored(path)) return
    changedPaths.add(path)
    clearTimeout(pending)
    pending = setTimeout(() => {
      applyChanges().catch((error: unknown) =>
        options.log(`error ${error instanceof Error ? error.message : String(error)}`),
      )
    }, 25)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve())
  })
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
  const url = new URL(request.url ?? '/', 'http://preview.invalid')
  if (url.pathname === EVENTS_PATH) return reload.connect(response)
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return send(response, 405, 'text/plain', 'Method not allowed')
  let path: string
  try {
    path = decodeURIComponent(url.pathname).replace(/^\/+/, '')
  } catch {
    return send(response, 400, 'text/plain', 'Bad URL encoding')
  }
  if (path !== '' && !isSafeRelativePath(path.replace(/\/$/, '')))
    return send(response, 400, 'text/plain', 'Bad path')

  const configErrors = site.configErrors()
  if (hasErrors(configErrors) && !path.startsWith('_assets/')) {
    return send(
      response,
      500,
      'text/html; charset=utf-8',
      renderErrorPage('docs.json has errors', configErrors),
    )
  }

  // Pages: `slug/` (or `slug/index.html`); `slug` redirects so relative links resolve.
  const slug = path === '' || path === 'index.html' ? 'index' : path.replace(/\/index\.html$|\/$/, '')
  if (slug === 'index' && !site.isPage('index')) {
    const first = site.firstPage()
    if (first) return redirect(response, `/${first}/`)
  }
  if (site.isPage(slug) && !isSource(path)) {
    if (path !== '' && !path.endsWith('/') && !path.endsWith('index.html'))
      return redirect(response, `/${path}/${url.search}`)
    const result = await site.page(slug)
    const html = result.files.get(pageOutputPath(slug))
    if (!html) {
      const own = result.diagnostics.filter((d) => d.severity === 'error')
      return send(
        response,
        500,
        'text/html; charset=utf-8',
        renderErrorPage(`${slug} could not be built`, own),
      )
    }
    return send(response, 200, 'text/html; charset=utf-8', injectLiveReload(new TextDecoder().decode(html)))
  }
  if (path.endsWith('.md') && site.isPage(path.slice(0, -3))) {
    const pageSlug = path.slice(0, -3)
    const markdown = (await site.page(pageSlug)).files.get(markdownOutputPath(pageSlug))
    if (markdown) return send(response, 200, 'text/markdown; charset=utf-8', markdown)
  }
  const theme = themeFiles().files.get(path)
  if (theme) return send(response, 200, contentType(path), theme)
  const source = site.files.get(path)
  if (source && !isSource(path)) return send(response, 200, contentType(path), source)
  const built = (await site.full()).files
  const file = built.get(path) ?? built.get(`${path.replace(/\/$/, '')}/index.html`)
  if (file) {
    const body = path.endsWith('.html') ? injectLiveReload(new TextDecoder().decode(file)) : file
    return send(
      response,
      200,
      contentType(path.endsWith('/') || !path.includes('.') ? 'index.html' : path),
      body,
    )
  }
  const notFound = built.get('404.html')
  return send(
    response,
    404,
    'text/html; charset=utf-8',
    notFound ? injectLiveReload(new TextDecoder().decode(notFound)) : 'Not found',
  )
}

const contentType = (path: string): string => {
  const type = mimeLookup(path) || 'application/octet-stream'
  return /^(text\/|application\/(javascript|json))/.test(type) ? `${type}; charset=utf-8` : type
}

function send(response: ServerResponse, status: number, type: string, body: string | Uint8Array): void {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' })
  response.end(body)
}

function redirect(response: ServerResponse, location: string): void {
  response.writeHead(302, { location, 'cache-control': 'no-store' })
  response.end()
}
