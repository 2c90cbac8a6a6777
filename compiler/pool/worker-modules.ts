/**
 * The modules worker threads load: the page renderer and the compiler's `buildSite`, from the bundle
 * `npm run build` makes of them (scripts/bundle.ts) when it is there, else as tsc wrote them.
 * A thread that imports the ~520 modules of the renderer one by one spends about 0.85 CPU-s on module
 * loading alone (resolving, reading and compiling each file); the bundle is a few files and loads in
 * about 0.2 s. Every build thread and page thread of a server or of `docsctl build` starts this way.
 * Paths come from the package root, not from this file, because this file may itself be bundled.
 */
import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { fromPackageRoot } from '../../lib/package-root.js'

/** Where the bundle goes, relative to the package root. */
export const BUNDLE_DIR = ['dist', 'bundle'] as const

function preferBundled(bundled: readonly string[], unbundled: readonly string[]): string {
  const path = fromPackageRoot(...BUNDLE_DIR, ...bundled)
  return pathToFileURL(existsSync(path) ? path : fromPackageRoot('dist', 'compiler', ...unbundled)).href
}

let renderWorker: string | undefined
let compilerBuild: string | undefined

/** The page renderer's worker module (piscina's `filename`). */
export const renderWorkerUrl = (): string => {
  renderWorker ??= preferBundled(['compiler', 'pool', 'render-worker.js'], ['pool', 'render-worker.js'])
  return renderWorker
}

/** The module that exports `buildSite`, for build threads. */
export const compilerBuildUrl = (): string => {
  compilerBuild ??= preferBundled(['compiler', 'build.js'], ['build.js'])
  return compilerBuild
}
