/**
 * Stage 4 of `buildSite`: render each page's body.
 * In: the pages this build makes, the site's files, every page's slug (for link checks) and the
 * build options (cache, workers, a caller's renderer).
 * Out: a rendered body (HTML, table of contents, text, front matter, assets) per page, taken from the
 * cache where its key and dependencies still hold, else rendered by content/ (in worker threads for
 * a large build); the next cache's entries; and the render diagnostics: one per page that failed, then
 * each page's own (an unknown icon once for the whole build).
 */
import { availableParallelism } from 'node:os'
import type { RenderedPage } from '../content/render-page.js'
import type { Diagnostic } from '../diagnostics.js'
import type { SourceFiles } from '../files.js'
import { type CacheEntry, dependencyFingerprint, lookup, pageKey, siteKey } from '../pool/cache.js'
import type { RenderOutcome, RenderTask } from '../pool/protocol.js'
import { renderWithTemporaryPool } from '../pool/render-pool.js'
import type { BuildOptions } from '../types.js'
import type { SitePage } from './discover.js'

/** Below this many pages to render, starting workers costs more than it saves. */
const POOL_THRESHOLD = 32

/** The number of render workers a command-line build should use: one per core. */
export const defaultWorkers = (): number => availableParallelism()

export interface RenderedBodies {
  /** The body of every page that rendered (or came from the cache), by slug. */
  rendered: Map<string, RenderedPage>
  /** The cache key of each page this build makes, by slug. */
  keyOf: Map<string, string>
  /** Slugs of the pages taken from the cache: their shells may be reused too. */
  reused: ReadonlySet<string>
  /** The cache entries the next build is handed. */
  entries: Record<string, unknown>
  /** How many pages were rendered rather than taken from the cache. */
  renderedCount: number
  highlightCalls: number
  diagnostics: Diagnostic[]
}

export async function renderBodies(
  selected: readonly SitePage[],
  files: SourceFiles,
  pageSlugs: ReadonlySet<string>,
  options: BuildOptions,
): Promise<RenderedBodies> {
  const diagnostics: Diagnostic[] = []
  // Render what the cache cannot supply.
  const site = siteKey(options.mode, [...pageSlugs])
  const rendered = new Map<string, RenderedPage>()
  const entries: Record<string, unknown> = options.only ? { ...(options.cache?.entries ?? {}) } : {}
  const tasks: (RenderTask & { key: string })[] = []
  const reusedKeys = new Map<string, string>()
  for (const page of selected) {
    const key = pageKey(site, page.file, files.get(page.file)!)
    const hit = lookup(options.cache, key, files)
    if (hit) {
      rendered.set(page.slug, hit.page)
      entries[key] = hit
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
    entries[task.key] = entry
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
  return {
    rendered,
    keyOf,
    reused: new Set(reusedKeys.keys()),
    entries,
    renderedCount: tasks.length,
    highlightCalls,
    diagnostics,
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
  const { renderOne } = await import('../pool/render-one.js')
  const outcomes: RenderOutcome[] = []
  for (const task of tasks) outcomes.push(await renderOne(task, files, pageSlugs, options.mode))
  return outcomes
}
