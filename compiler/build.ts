/**
 * `buildSite(files, options)`: source files in, site files and diagnostics out, deterministically.
 * The CLI (`build`, `dev`) and the server call this alike. It composes the stages, each a module that
 * names its input and output:
 *   1. load docs.json                       config/                  → config, navigation tree
 *   2. expand the API reference             openapi/index.ts         → files and navigation with API pages
 *   3. find the pages                       build/discover.ts        → pages with their files
 *   4. render each page's body              build/render.ts          → bodies (cache, worker threads)
 *   5. the site context of every shell      build/context.ts         → sidebar summaries, navigation indexes
 *   6. the files every page loads           build/assets.ts          → theme, Tailwind, KaTeX, author files
 *   7. wrap every page in the shell         build/shells.ts          → page HTML and `.md` exports
 *   8. the site-wide files                  build/outputs.ts         → search, llms.txt, 404, redirects
 * then every file is handed over in path order (build/delivery.ts) with the site's CSP.
 */
import { performance } from 'node:perf_hooks'
import { writeSiteAssets } from './build/assets.js'
import { siteContext } from './build/context.js'
import { Delivery } from './build/delivery.js'
import { discoverPages } from './build/discover.js'
import { writeSiteOutputs } from './build/outputs.js'
import { renderBodies } from './build/render.js'
import { keepShellMemo, wrapPages } from './build/shells.js'
import { loadConfig } from './config/index.js'
import { capDiagnostics, type Diagnostic, failsBuild, hasErrors, sortDiagnostics } from './diagnostics.js'
import type { SiteFiles, SourceFiles } from './files.js'
import { citeGeneratedSource, expandApiReference } from './openapi/index.js'
import { compilerVersion } from './pool/cache.js'
import { sitePagePolicy } from './security-headers.js'
import type { BuildCache, BuildOptions, BuildResult } from './types.js'

export { defaultWorkers } from './build/render.js'

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

  const bodies = await renderBodies(selected, files, pageSlugs, options)
  diagnostics.push(...bodies.diagnostics)
  const { rendered } = bodies

  const context = siteContext(config, navigation, allPages, rendered, files, options)
  // Page files go to the caller's sink as each is made, when it gave one; everything else (and, without
  // a sink, the pages too) is collected here and handed over at the end.
  const output: SiteFiles = new Map()
  const delivery = new Delivery(options.onFile, !failsBuild(diagnostics, mode))
  const assets = await writeSiteAssets(output, context, {
    selected,
    rendered,
    files,
    wholeSite: !wanted,
    playground: reference.playgroundOrigins.length > 0,
  })
  diagnostics.push(...assets.diagnostics)
  const { hashedAssets } = assets
  const { pagePaths, memo } = await wrapPages(output, delivery, context, {
    selected,
    bodies,
    tailwind: assets.tailwind,
    options,
  })
  const notices: string[] = []
  if (!wanted) {
    const sitePages = { pages: allPages, rendered, keyOf: bodies.keyOf, files, ...(memo ? { memo } : {}) }
    notices.push(...writeSiteOutputs(output, context, sitePages, pagePaths, reference.moved))
  }

  const sorted: SiteFiles = new Map([...output.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  output.clear()
  if (delivery.streaming) for (const [path, bytes] of sorted) await delivery.deliver(path, bytes)
  else for (const [path, bytes] of sorted) delivery.scan(path, bytes)
  const allDiagnostics = sortDiagnostics(
    capDiagnostics(diagnostics.map((diagnostic) => citeGeneratedSource(diagnostic, reference.sources))),
  )
  const cache: BuildCache = { compilerVersion: compilerVersion(), entries: bodies.entries }
  if (memo) keepShellMemo(cache, memo)
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
    ...(notices.length > 0 ? { notices } : {}),
    cache,
    stats: {
      pages: selected.length,
      pagesRendered: bodies.renderedCount,
      pagesReused: selected.length - bodies.renderedCount,
      highlightCalls: bodies.highlightCalls,
      durationMs: performance.now() - started,
    },
  }
}
