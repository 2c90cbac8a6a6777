/**
 * The contract of `buildSite(files, options)` (compiler/build.ts): source files in, site files and
 * diagnostics out, deterministically. The CLI (`build`, `dev`) and the server (finalize) call it alike.
 */
import type { ValidationMode } from './config/types.js'
import type { Diagnostic } from './diagnostics.js'
import type { SiteFiles } from './files.js'
import type { PageRenderer } from './pool/protocol.js'

export interface AnalyticsSettings {
  posthog?: { key: string; host: string }
}

/**
 * Rendered page content from an earlier build, keyed by a hash of everything the render depends on
 * (page source, snippets it imports, config, compiler version). Plain JSON: the server stores it
 * beside a deployment and hands it to the next build, so unchanged pages are not rendered again.
 */
export interface BuildCache {
  compilerVersion: string
  entries: Record<string, unknown>
}

export interface BuildOptions {
  mode: ValidationMode
  /**
   * How docs.json is read, when not as `mode` says: `docsctl validate` reads it leniently for its
   * page check, having reported its strict problems already, so pages are checked despite them.
   */
  configMode?: ValidationMode
  cache?: BuildCache
  analytics?: AnalyticsSettings
  /** Render only these page slugs (docsctl dev compiles on demand); site-wide outputs are skipped. */
  only?: readonly string[]
  /**
   * Render pages in this many worker threads (one highlighter and processor each). 0 or 1 renders
   * in the calling thread, the default; the CLI asks for one per core, and so does the server's build worker.
   */
  workers?: number
  /**
   * Render pages elsewhere: the server passes its shared pool (with page time and memory limits)
   * here. Takes precedence over `workers`.
   */
  renderer?: PageRenderer
  /**
   * Receives every site file, each once, as soon as it is made (pages while the others are still being
   * wrapped in the shell), and only for a build without errors. The result's `files` is then empty, and
   * the build keeps no page output: memory stays bounded by a page, not by the site. The build waits
   * for a returned promise, so a sink that writes slower than pages are made holds the build back.
   */
  onFile?: (path: string, bytes: Uint8Array) => void | Promise<void>
}

export interface BuildStats {
  pages: number
  pagesRendered: number
  pagesReused: number
  highlightCalls: number
  durationMs: number
}

export interface BuildResult {
  /** True when no diagnostic is an error; a failed build still returns every diagnostic. */
  ok: boolean
  files: SiteFiles
  /**
   * Site paths whose names carry a hash of their bytes (the theme's stylesheet and script): the only
   * files a host may cache for a year. Authors' files never are, whatever their names look like.
   */
  hashedAssets: ReadonlySet<string>
  /** The Content-Security-Policy of the site's pages: allows the shell's inline scripts by hash. */
  contentSecurityPolicy: string
  /** Origins the API pages' "Try it" panels send requests to; the policy above lets pages connect to them. */
  playgroundOrigins?: string[]
  diagnostics: Diagnostic[]
  /** What the build did that an author should know and that is no problem (an own llms.txt served). */
  notices?: string[]
  cache: BuildCache
  stats: BuildStats
}
