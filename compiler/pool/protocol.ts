/** Messages between a build and the worker threads that render its pages. Structured-clone friendly. */
import type { ValidationMode } from '../config/types.js'
import type { RenderedPage } from '../content/render-page.js'
import type { SourceFiles } from '../files.js'

export interface RenderTask {
  file: string
  slug: string
}

/**
 * A site's files packed into one shared buffer, and its index (file layout and page slugs, as JSON)
 * in another: tasks carry both without copying, and a worker decodes the index once per site.
 */
export interface SharedSite {
  /** Unique per build, so a worker reuses its decoded index across the pages of one build. */
  id: string
  files: SharedArrayBuffer
  /**
   * Files the build made or rewrote before rendering (API reference pages, `openapi:` pages with their
   * operation), laid over `files`: the server packs the uploaded files before its build knows them.
   */
  overlay?: SharedArrayBuffer
  index: SharedArrayBuffer
  mode: ValidationMode
}

export interface SiteIndex {
  /** [path, byte offset, byte length] of every file in `files`. */
  layout: [string, number, number][]
  /** [path, byte offset, byte length] of every file in `overlay`, which win over `files`. */
  overlayLayout?: [string, number, number][]
  /** Paths of `files` the build dropped before rendering. */
  removed?: string[]
  pageSlugs: string[]
}

/** What a build's file map holds beyond the files it was given: packed, to lay over them. */
export interface SiteChanges {
  buffer: SharedArrayBuffer
  layout: [string, number, number][]
  removed: string[]
}

export interface RenderPageMessage {
  site: SharedSite
  task: RenderTask
  /**
   * Two Int32s: the worker sets the second to its kernel thread id (0 when unknown), then the first to
   * 1, and notifies, when it begins this page: its CPU limit starts counting then.
   */
  started: SharedArrayBuffer
}

export type RenderOutcome =
  | { ok: true; page: RenderedPage; highlightCalls: number }
  | {
      ok: false
      message: string /** `page-limit` for a page over its time or memory limit; `build-limit` for one its build stopped. */
      rule?: string
    }

/** Renders a batch of a site's pages wherever threads are (a pool in this process, or over a port). */
export type PageRenderer = (
  tasks: readonly RenderTask[],
  site: { files: SourceFiles; pageSlugs: ReadonlySet<string>; mode: ValidationMode },
) => Promise<RenderOutcome[]>
