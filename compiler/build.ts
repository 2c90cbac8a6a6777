/**
 * `buildSite(files, options)`: source files in, site files and diagnostics out, deterministically.
 * The stages, in order: load docs.json (config/), find the pages (discoverPages), render each page body
 * (content/, reusing the cache, in worker threads when asked), wrap every page in the shell (theme/),
 * then the site-wide outputs (outputs/). The CLI (`build`, `dev`) and the server call this alike.
 */
import { createHash } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { performance } from 'node:perf_hooks'
import escapeHtml from 'escape-html'
import { loadConfig } from './config/index.js'
import type { DocsConfig, NavigationTree, ValidationMode } from './config/types.js'
import { type FrontMatter, readFrontMatter } from './content/frontmatter.js'
import type { RenderedPage } from './content/render-page.js'
import { capDiagnostics, type Diagnostic, failsBuild, hasErrors, sortDiagnostics } from './diagnostics.js'
import type { SiteFiles, SourceFiles } from './files.js'
import { expandApiReference, parseOperationReference } from './openapi/index.js'
import { type LlmsPage, renderLlmsFullTxt, renderLlmsTxt } from './outputs/llms.js'
import { renderMarkdownExport } from './outputs/markdown-export.js'
import { MCP_PAGES_PATH, type McpPage, mcpEnabled, renderMcpPages } from './outputs/mcp-pages.js'
import { renderNotFoundBody } from './outputs/not-found.js'
import { redirectOutputs } from './outputs/redirects.js'
import { renderRobotsTxt } from './outputs/robots.js'
import {
  renderSearchIndexOf,
  SEARCH_INDEX_PATH,
  type SearchEntry,
  searchRecord,
} from './outputs/search-index.js'
import { collectStaticAssets } from './outputs/static-assets.js'
import {
  type CacheEntry,
  compilerVersion,
  dependencyFingerprint,
  lookup,
  pageKey,
  siteKey,
} from './pool/cache.js'
import type { RenderOutcome, RenderTask } from './pool/protocol.js'
import { renderWithTemporaryPool } from './pool/render-pool.js'
import { folderIndexRedirects, type RedirectRule, redirectRules } from './serving/redirects.js'
import { inlineScriptsOfHead, sitePagePolicy } from './serving/security-headers.js'
import { themeFiles } from './theme/assets.js'
import type { PageSummary, SiteContext } from './theme/context.js'
import { diagramFiles } from './theme/diagram-assets.js'
import { iconSvg } from './theme/icons.js'
import { mathFiles } from './theme/math-assets.js'
import { indexLocations, indexNeighbours } from './theme/navigation.js'
import { renderShell } from './theme/page.js'
import { type StylesheetWarning, scopeRootStylesheetBytes } from './theme/scope-stylesheet.js'
import { compileTailwind, siteStylesheets } from './theme/tailwind.js'
import { markdownOutputPath, pageOutputPath, pageUrlPath, ROOT_FILE_SLUG } from './theme/urls.js'
import type { BuildCache, BuildOptions, BuildResult } from './types.js'

const encoder = new TextEncoder()

/** Below this many pages to render, starting workers costs more than it saves. */
const POOL_THRESHOLD = 32

/** The number of render workers a command-line build should use: one per core. */
export const defaultWorkers = (): number => availableParallelism()

export async function buildSite(sourceFiles: SourceFiles, options: BuildOptions): Promise<BuildResult> {
  const started = performance.now()
  const { mode } = options
  const loaded = loadConfig(sourceFiles, { mode: options.configMode ?? mode })
  const diagnostics: Diagnostic[] = [...loaded.diagnostics]
  const emptyCache: BuildCache = { compilerVersion: compilerVersion(), entries: {} }
  const { config } = loaded
  let { navigation } = loaded
  let files = sourceFiles
  // A docs.json error fails the build now, before minutes of rendering pages it would fail anyway.
  if (!config || !navigation || hasErrors(loaded.diagnostics)) {
    return {
      ok: false,
      files: new Map(),
      hashedAssets: new Set(),
      contentSecurityPolicy: sitePagePolicy({ inlineScripts: [] }),
      diagnostics: sortDiagnostics(capDiagnostics(diagnostics)),
      cache: options.cache ?? emptyCache,
      stats: {
        pages: 0,
        pagesRendered: 0,
        pagesReused: 0,
        highlightCalls: 0,
        durationMs: performance.now() - started,
      },
    }
  }

  // API reference pages become ordinary page sources (and navigation entries) before pages are found.
  const reference = await expandApiReference(files, config, navigation, mode)
  files = reference.files
  navigation = reference.navigation
  diagnostics.push(...reference.diagnostics)

  const discovered = discoverPages(files, navigation, mode)
  diagnostics.push(...discovered.diagnostics)
  const allPages = discovered.pages
  const pageSlugs = new Set(allPages.map((page) => page.slug))
  const wanted = options.only ? new Set(options.only) : undefined
  const selected = wanted ? allPages.filter((page) => wanted.has(page.slug)) : allPages

  // Render what the cache cannot supply.
  const site = siteKey(mode, [...pageSlugs])
  const rendered = new Map<string, RenderedPage>()
  const nextEntries: Record<string, unknown> = options.only ? { ...(options.cache?.entries ?? {}) } : {}
  const tasks: (RenderTask & { key: string })[] = []
  /** Cache keys of the pages this build took from the cache: their shells may be reused too. */
  const reusedKeys = new Map<string, string>()
  for (const page of selected) {
    const key = pageKey(site, page.file, files.get(page.file)!)
    const hit = lookup(options.cache, key, files)
    if (hit) {
      rendered.set(page.slug, hit.page)
      nextEntries[key] = hit
      reusedKeys.set(page.slug, key)
    } else tasks.push({ file: page.file, slug: page.slug, key })
  }
  const keyOf = new Map<string, string>(reusedKeys)
  for (const task of tasks) keyOf.set(task.slug, task.key)
  const outcomes = await renderPages(tasks, files, pageSlugs, options)
  let highlightCalls = 0
  tasks.forEach((task, index) => {
    const outcome = outcomes[index]!
    if (!outcome.ok) {
      diagnostics.push({
        severity: 'error',
        file: task.file,
        rule: outcome.rule ?? 'render-failed',
        message: outcome.message,
      })
      return
    }
    highlightCalls += outcome.highlightCalls
    rendered.set(task.slug, outcome.page)
    const entry: CacheEntry = { page: outcome.page, dependencies: dependencyFingerprint(outcome.page, files) }
    nextEntries[task.key] = entry
  })
  // An unknown or Pro icon name is one warning for the whole build (at its first use), not one per page.
  const unknownIcons = new Set<string>()
  for (const page of selected) {
    for (const diagnostic of rendered.get(page.slug)?.diagnostics ?? []) {
      if (diagnostic.rule === 'unknown-icon' || diagnostic.rule === 'paid-icon') {
        if (unknownIcons.has(diagnostic.message)) continue
        unknownIcons.add(diagnostic.message)
      }
      diagnostics.push(diagnostic)
    }
  }

  const context = siteContext(config, navigation, { pages: allPages, rendered }, files, options)
  // Page files go to the caller's sink as each is made, when it gave one; everything else (and, without
  // a sink, the pages too) is collected here and handed over at the end.
  const output: SiteFiles = new Map()
  const delivery = new Delivery(options.onFile, !failsBuild(diagnostics, mode))
  // Tailwind runs only when authors wrote class names on HTML elements; only the classes used become rules.
  const tailwind = await compileTailwind([...rendered.values()].flatMap((body) => body.classNames ?? []))
  if (tailwind) {
    output.set(tailwind.path, tailwind.bytes)
    context.assets.tailwindCss = tailwind.path
  }
  const stylesheets = siteStylesheets(files.keys())
  if (stylesheets.length > 0) context.assets.stylesheets = stylesheets
  // Reuse the previous build's outputs of unchanged pages when nothing every shell shows changed
  // (the Tailwind stylesheet and root stylesheets included: they are in context.assets).
  const shellKey = siteShellKey(context, options)
  const earlier = options.cache ? shellMemos.get(options.cache) : undefined
  const reusable = earlier?.shellKey === shellKey ? earlier.pages : undefined
  // A build that streams its files keeps none of them: memory stays bounded, and its next build
  // wraps every page in the shell again.
  const memo: ShellMemo | undefined = delivery.streaming
    ? undefined
    : { shellKey, pages: options.only && reusable ? new Map(reusable) : new Map() }
  const sitePages: SitePages = { pages: allPages, rendered, keyOf, ...(memo ? { memo } : {}) }
  const theme = themeFiles()
  // The API pages' script only in sites with a "Try it" panel, so other sites' files stay as they were.
  for (const [path, bytes] of theme.files)
    if (path !== theme.apiJsPath || reference.playgroundOrigins.length > 0) output.set(path, bytes)
  const assetPaths = new Set<string>()
  let usesMath = false
  let usesDiagrams = false
  for (const page of selected) {
    const body = rendered.get(page.slug)
    if (!body) continue
    for (const asset of body.assets) assetPaths.add(asset)
    if (body.math) usesMath = true
    if (body.mermaid) usesDiagrams = true
  }
  // KaTeX's stylesheet and fonts ship only with a site that shows math.
  const hashedAssets = new Set(theme.files.keys())
  if (usesMath) {
    for (const [path, bytes] of mathFiles().files) {
      output.set(path, bytes)
      hashedAssets.add(path)
    }
  }
  // The mermaid bundle (3.5 MB) ships only with a site that has a diagram.
  if (usesDiagrams) {
    for (const [path, bytes] of diagramFiles().files) {
      output.set(path, bytes)
      hashedAssets.add(path)
    }
  }
  if (tailwind) hashedAssets.add(tailwind.path)
  // The site's stylesheets are linked by every page, so they are published.
  for (const path of stylesheets) assetPaths.add(path)
  // An author's file never takes the place of the theme's hashed assets (nor their year-long caching).
  for (const [path, bytes] of collectStaticAssets(files, config, assetPaths, !wanted))
    if (!hashedAssets.has(path)) output.set(path, bytes)
  // The site's stylesheets style the article only: they cannot restyle the shell (compiler/theme/scope-stylesheet.ts).
  for (const path of stylesheets) {
    const bytes = output.get(path)
    if (!bytes) continue
    const warnings: StylesheetWarning[] = []
    output.set(path, scopeRootStylesheetBytes(bytes, stylesheets, warnings))
    for (const { line, column, message } of warnings)
      diagnostics.push({
        severity: 'warning',
        file: path,
        line,
        column,
        rule: 'stylesheet-rule-dropped',
        message,
      })
  }
  const pagePaths = new Set<string>()
  for (const page of selected) {
    const body = rendered.get(page.slug)
    if (!body) continue
    const key = keyOf.get(page.slug)!
    const reused = reusedKeys.has(page.slug) ? reusable?.get(key) : undefined
    const outputs = reused ?? {
      html: encoder.encode(
        renderShell(context, {
          slug: page.slug,
          title: body.title,
          ...(body.description ? { description: body.description } : {}),
          html: body.html,
          toc: body.toc,
          frontMatter: { ...body.frontMatter },
          ...(body.math ? { math: true } : {}),
          ...(body.mermaid ? { mermaid: true } : {}),
          ...(tailwind && body.classNames?.some((name) => tailwind.classes.has(name))
            ? { tailwind: true }
            : {}),
        }),
      ),
      markdown: renderMarkdownExport(body),
    }
    memo?.pages.set(key, outputs)
    // An author's file at the same path takes the page's place, as it always has.
    for (const [path, bytes] of [
      [pageOutputPath(page.slug), outputs.html],
      [markdownOutputPath(page.slug), encoder.encode(outputs.markdown)],
    ] as const) {
      if (output.has(path)) continue
      pagePaths.add(path)
      if (delivery.streaming) await delivery.deliver(path, bytes)
      else output.set(path, bytes)
    }
  }
  if (!wanted) writeSiteOutputs(output, context, sitePages, pagePaths, reference.moved)

  const sorted: SiteFiles = new Map([...output.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  output.clear()
  if (delivery.streaming) for (const [path, bytes] of sorted) await delivery.deliver(path, bytes)
  else for (const [path, bytes] of sorted) delivery.scan(path, bytes)
  const allDiagnostics = sortDiagnostics(capDiagnostics(diagnostics))
  const cache: BuildCache = { compilerVersion: compilerVersion(), entries: nextEntries }
  if (memo) shellMemos.set(cache, memo)
  return {
    ok: !failsBuild(allDiagnostics, mode),
    files: delivery.streaming ? new Map() : sorted,
    hashedAssets,
    contentSecurityPolicy: sitePagePolicy({
      inlineScripts: [...delivery.inlineScripts],
      connectSources: reference.playgroundOrigins,
      ...(options.analytics?.posthog ? { analyticsHost: options.analytics.posthog.host } : {}),
    }),
    ...(reference.playgroundOrigins.length > 0 ? { playgroundOrigins: reference.playgroundOrigins } : {}),
    diagnostics: allDiagnostics,
    cache,
    stats: {
      pages: selected.length,
      pagesRendered: tasks.length,
      pagesReused: selected.length - tasks.length,
      highlightCalls,
      durationMs: performance.now() - started,
    },
  }
}

/**
 * Where a build's files go: the caller's sink, each file once, as soon as it is made (only for a
 * build without errors: a failed build delivers nothing); and the inline scripts of every HTML file's
 * head, which the site's Content-Security-Policy allows by hash.
 */
class Delivery {
  readonly inlineScripts = new Set<string>()
  readonly streaming: boolean
  readonly #sink: BuildOptions['onFile']
  readonly #delivered = new Set<string>()

  constructor(sink: BuildOptions['onFile'], succeeds: boolean) {
    this.#sink = succeeds ? sink : undefined
    this.streaming = sink !== undefined
  }

  async deliver(path: string, bytes: Uint8Array): Promise<void> {
    if (this.#delivered.has(path)) throw new Error(`${path} was made twice in one build`)
    this.#delivered.add(path)
    this.scan(path, bytes)
    await this.#sink?.(path, bytes)
  }

  scan(path: string, bytes: Uint8Array): void {
    if (!path.endsWith('.html')) return
    const headEnd = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf('</head>')
    if (headEnd === -1) return
    const head = new TextDecoder().decode(bytes.subarray(0, headEnd + '</head>'.length))
    for (const script of inlineScriptsOfHead(head)) this.inlineScripts.add(script)
  }
}

async function renderPages(
  tasks: readonly RenderTask[],
  files: SourceFiles,
  pageSlugs: ReadonlySet<string>,
  options: BuildOptions,
): Promise<RenderOutcome[]> {
  const site = { files, pageSlugs, mode: options.mode }
  if (options.renderer && tasks.length > 0) return options.renderer(tasks, site)
  const workers = options.workers ?? 0
  if (workers > 1 && tasks.length >= POOL_THRESHOLD) {
    try {
      return await renderWithTemporaryPool(tasks, site, workers)
    } catch {
      // A pool that cannot start must not fail the build: render in this thread instead.
    }
  }
  // Loaded only to render here: a thread that leaves pages to workers never loads the renderer.
  const { renderOne } = await import('./pool/render-one.js')
  const outcomes: RenderOutcome[] = []
  for (const task of tasks) outcomes.push(await renderOne(task, files, pageSlugs, options.mode))
  return outcomes
}

/** Every page of the site, and the bodies this build rendered (by slug): what the site-wide steps read. */
interface SitePages {
  pages: readonly SitePage[]
  rendered: ReadonlyMap<string, RenderedPage>
  /** This build's outputs per page cache key, and the cache key of each page (by slug). */
  memo?: ShellMemo
  keyOf?: ReadonlyMap<string, string>
}

/**
 * A build's per-page outputs (the page in its shell, its Markdown export, its search record), by the
 * page's cache key, valid while the site's shell key holds. Kept beside the cache object the build
 * returned, so the next build handed that cache (docsctl dev, a rebuild in the same process) re-renders
 * and re-encodes only what changed; a cache read back from JSON simply finds none.
 */
interface ShellMemo {
  shellKey: string
  pages: Map<string, PageOutputs>
}

interface PageOutputs {
  html: Uint8Array
  markdown: string
  /** The page's search record as JSON, once the site-wide step made it. */
  search?: string
}

const shellMemos = new WeakMap<BuildCache, ShellMemo>()

/** A hash of everything the shell of every page reads besides the page itself. */
function siteShellKey(context: SiteContext, options: BuildOptions): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        context.config,
        context.navigation,
        [...context.pages],
        context.firstPageOfTab,
        context.assets,
        options.analytics ?? null,
      ]),
    )
    .digest('hex')
}

function siteContext(
  config: DocsConfig,
  navigation: NavigationTree,
  { pages, rendered }: SitePages,
  files: SourceFiles,
  options: BuildOptions,
): SiteContext {
  const summaries = new Map<string, PageSummary>()
  for (const page of pages) {
    const front = rendered.get(page.slug)?.frontMatter ?? frontMatterOf(files, page.file, options.mode)
    if (!front) continue
    const summary: PageSummary = { title: front.title }
    if (front.sidebarTitle) summary.sidebarTitle = front.sidebarTitle
    if (front.url) summary.url = front.url
    if (front.tag) summary.tag = front.tag
    if (front.deprecated) summary.deprecated = true
    if (front.hidden) summary.hidden = true
    const method = apiMethodOf(front)
    if (method) summary.method = method
    const icon = front.icon ? iconSvg(front.icon, front.iconType) : undefined
    if (icon) summary.iconSvg = icon
    summaries.set(page.slug, summary)
  }
  const firstPageOfTab = navigation.tabs.map(
    (_, tab) =>
      navigation.pages.find(
        (location) => location.tab === tab && !location.hidden && summaries.has(location.slug),
      )?.slug,
  )
  const theme = themeFiles()
  const context: SiteContext = {
    config,
    navigation,
    pages: summaries,
    firstPageOfTab,
    locations: indexLocations(navigation),
    neighbours: indexNeighbours(navigation, (slug) => summaries.has(slug) && !summaries.get(slug)?.hidden),
    assets: { css: theme.cssPath, js: theme.jsPath, apiJs: theme.apiJsPath, searchIndex: SEARCH_INDEX_PATH },
    iconSvg: (name) => iconSvg(name, undefined),
  }
  if (options.analytics) context.analytics = options.analytics
  return context
}

/** The HTTP method an API page documents (`openapi:` or `api:`), for its sidebar badge; none with `hideApiMarker`. */
function apiMethodOf(front: FrontMatter): string | undefined {
  if (front.hideApiMarker === true) return undefined
  const written =
    typeof front.openapi === 'string' ? front.openapi : typeof front.api === 'string' ? front.api : undefined
  return written ? parseOperationReference(written)?.method : undefined
}

/**
 * Front matter of a page that was not rendered in this build (docsctl dev renders on demand), for
 * its sidebar label. Remembered per file contents: the dev server keeps unchanged files' bytes, so
 * each request does not parse every page of a large site again.
 */
const frontMatterByBytes = new WeakMap<Uint8Array, FrontMatter | undefined>()

function frontMatterOf(files: SourceFiles, file: string, mode: ValidationMode): FrontMatter | undefined {
  const bytes = files.get(file)
  if (!bytes) return undefined
  if (frontMatterByBytes.has(bytes)) return frontMatterByBytes.get(bytes)
  const data = readFrontMatter(new TextDecoder().decode(bytes), file, mode).data
  frontMatterByBytes.set(bytes, data)
  return data
}

function writeSiteOutputs(
  output: SiteFiles,
  context: SiteContext,
  { pages, rendered, memo, keyOf }: SitePages,
  pagePaths: ReadonlySet<string>,
  movedPages: readonly RedirectRule[],
): void {
  const { config } = context
  const listed: LlmsPage[] = []
  const search: string[] = []
  const mcpPages: McpPage[] = []
  const disallowed: string[] = []
  const indexing = config.seo?.indexing ?? 'navigable'
  for (const page of pages) {
    const body = rendered.get(page.slug)
    if (!body) continue
    const location = context.locations.get(page.slug)
    const section = location?.groups.at(-1)
    const hidden = !location || location.hidden || body.frontMatter.hidden === true
    if (body.frontMatter.noindex === true || (indexing === 'navigable' && hidden)) disallowed.push(page.slug)
    if (hidden) continue
    const outputs = memo?.pages.get(keyOf?.get(page.slug) ?? '')
    const llmsPage: LlmsPage = {
      slug: page.slug,
      title: body.title,
      markdown: outputs?.markdown ?? renderMarkdownExport(body),
    }
    if (body.description) llmsPage.description = body.description
    if (section) llmsPage.section = section
    listed.push(llmsPage)
    const sections = context.navigation.tabs[location.tab]?.path.map((section) => section.label) ?? []
    const mcpPage: McpPage = { slug: page.slug, title: body.title, path: [...sections, ...location.groups] }
    if (body.description) mcpPage.description = body.description
    mcpPages.push(mcpPage)
    if (outputs?.search !== undefined) {
      search.push(outputs.search)
      continue
    }
    const entry: SearchEntry = {
      url: pageUrlPath(page.slug),
      title: body.title,
      headings: body.toc.map((heading) => heading.text),
      text: body.text,
    }
    if (section) entry.section = section
    if (body.description) entry.description = body.description
    if (body.frontMatter.keywords) entry.keywords = body.frontMatter.keywords
    const record = searchRecord(entry)
    if (outputs) outputs.search = record
    search.push(record)
  }
  output.set('llms.txt', encoder.encode(renderLlmsTxt(config, listed)))
  output.set('llms-full.txt', encoder.encode(renderLlmsFullTxt(config, listed)))
  output.set('robots.txt', encoder.encode(renderRobotsTxt(disallowed)))
  output.set(SEARCH_INDEX_PATH, renderSearchIndexOf(search))
  if (mcpEnabled(config))
    output.set(
      MCP_PAGES_PATH,
      renderMcpPages({
        name: config.name,
        ...(config.description ? { description: config.description } : {}),
        pages: mcpPages,
      }),
    )
  const home = context.firstPageOfTab.find((slug) => slug !== undefined)
  output.set(
    '404.html',
    encoder.encode(
      renderShell(context, {
        slug: ROOT_FILE_SLUG,
        title: 'Page not found',
        html: renderNotFoundBody(home),
        toc: [],
        frontMatter: { noindex: true, hideFooterPagination: true },
      }),
    ),
  )
  const existing = { has: (path: string) => output.has(path) || pagePaths.has(path) }
  const rules = redirectRules(config.redirects)
  // Generated API pages that moved to the platform's URL scheme, unless docs.json says otherwise.
  for (const rule of movedPages) if (!rules.some((own) => own.source === rule.source)) rules.push(rule)
  // A folder's own page is at `/guide/`; links and bookmarks to `/guide/index` still reach it.
  const authored = new Set(rules.map((rule) => rule.source))
  for (const rule of folderIndexRedirects(pages.map((page) => page.slug)))
    if (!authored.has(rule.source)) rules.push(rule)
  for (const [path, bytes] of redirectOutputs(rules, existing)) output.set(path, bytes)
  // A site without an `index` page still answers at its root: send readers to the first page.
  if (!rendered.has('index') && home) {
    const target = pageUrlPath(home)
    output.set(
      'index.html',
      encoder.encode(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(config.name)}</title><meta http-equiv="refresh" content="0; url=${escapeHtml(target)}"><link rel="canonical" href="${escapeHtml(target)}"></head><body><p><a href="${escapeHtml(target)}">Continue to ${escapeHtml(config.name)}</a></p></body></html>\n`,
      ),
    )
  }
}

interface SitePage {
  slug: string
  file: string
  inNavigation: boolean
}

const isSnippetPath = (path: string): boolean =>
  path.startsWith('snippets/') || path.split('/').some((segment) => segment.startsWith('_'))

function discoverPages(
  files: SourceFiles,
  navigation: NavigationTree,
  mode: ValidationMode,
): { pages: SitePage[]; diagnostics: Diagnostic[] } {
  const pages: SitePage[] = []
  const diagnostics: Diagnostic[] = []
  const seen = new Set<string>()
  for (const location of navigation.pages) {
    if (seen.has(location.slug)) continue
    seen.add(location.slug)
    const file = [`${location.slug}.mdx`, `${location.slug}.md`].find((candidate) => files.has(candidate))
    if (file) {
      pages.push({ slug: location.slug, file, inNavigation: true })
      continue
    }
    diagnostics.push({
      severity: mode === 'strict' ? 'error' : 'warning',
      file: 'docs.json',
      rule: 'missing-page',
      message: `Navigation page "${location.slug}" has no file; expected ${location.slug}.mdx`,
    })
  }
  const unlisted = [...files.keys()]
    .filter((path) => path.endsWith('.mdx') && !isSnippetPath(path))
    .map((path) => path.slice(0, -'.mdx'.length))
    .filter((slug) => !seen.has(slug))
    .sort()
  for (const slug of unlisted) pages.push({ slug, file: `${slug}.mdx`, inNavigation: false })
  // `guide/index` is served at `/guide/`, where a page `guide` already is: that one keeps the URL.
  const slugs = new Set(pages.map((page) => page.slug))
  const kept = pages.filter((page) => {
    const folder = page.slug.endsWith('/index') ? page.slug.slice(0, -'/index'.length) : undefined
    if (folder === undefined || !slugs.has(folder)) return true
    diagnostics.push({
      severity: mode === 'strict' ? 'error' : 'warning',
      file: page.file,
      rule: 'page-conflict',
      message: `Unexpected ${page.file} beside ${pages.find((other) => other.slug === folder)?.file}: both are the page at /${folder}/, which the latter keeps; rename or remove one`,
    })
    return false
  })
  return { pages: kept, diagnostics }
}
