/**
 * The compiler's public entry: a pure library, source files in, site files and diagnostics out.
 * `buildSite` is what the CLI and the server call; the rest are its stages, for tools and tests.
 */
export { buildSite, defaultWorkers } from './build.js'
export { loadConfig } from './config/index.js'
export type * from './config/types.js'
export type { RenderedPage, RenderPageInput } from './content/render-page.js'
export { renderPage } from './content/render-page.js'
export type { Diagnostic, Severity } from './diagnostics.js'
export { formatDiagnostic, hasErrors, sortDiagnostics } from './diagnostics.js'
export type { SiteFiles, SourceFiles } from './files.js'
export type * from './types.js'
export { validateSite } from './validate-site.js'
