/**
 * What the plugins of one page render share, passed through `file.data.page` (typed below) rather
 * than through globals, so one frozen processor can render many pages at once.
 */

import type GithubSlugger from 'github-slugger'
import type {} from 'vfile'
import type { ValidationMode } from '../config/types.js'
import type { Diagnostic } from '../diagnostics.js'
import type { SourceFiles } from '../files.js'
import type { Highlighter } from '../highlight/index.js'
import type { StaticValue } from './static-value.js'

export interface TocEntry {
  depth: 2 | 3
  id: string
  text: string
}

/** A place in a source file: 1-based line and column. */
export interface Place {
  line: number
  column: number
}

export interface PageContext {
  /** The page's source path (`guide/setup.mdx`) and slug (`guide/setup`). */
  file: string
  slug: string
  files: SourceFiles
  pageSlugs: ReadonlySet<string>
  mode: ValidationMode
  highlighter: Highlighter
  /** Bindings of the page's literal `export const`s. */
  scope: Map<string, StaticValue>
  /** Local component name → snippet file path, from the page's `import` lines. */
  imports: Map<string, string>
  diagnostics: Diagnostic[]
  assets: Set<string>
  icons: Set<string>
  /** Snippet files read while rendering (for the build cache key). */
  dependencies: Set<string>
  toc: TocEntry[]
  markdown: string
  /** One slugger per page, shared by headings and components, so every id on the page is unique. */
  slugger: GithubSlugger
  /** Counters for generated ids (`tabs-1`, `tooltip-2`), in document order, so output is stable. */
  counters: Map<string, number>
}

declare module 'vfile' {
  interface DataMap {
    page: PageContext
  }
}

/**
 * Report a problem with the page. `kind: 'problem'` is an error in strict mode and a warning in lenient
 * mode (the page still renders); `'warning'` and `'error'` are the same in both modes.
 */
export function report(
  page: PageContext,
  kind: 'problem' | 'warning' | 'error',
  rule: string,
  message: string,
  place?: Partial<Place>,
  file: string = page.file,
): void {
  const severity = kind === 'problem' ? (page.mode === 'strict' ? 'error' : 'warning') : kind
  const diagnostic: Diagnostic = { severity, file, rule, message }
  if (place?.line !== undefined) diagnostic.line = place.line
  if (place?.column !== undefined) diagnostic.column = place.column
  page.diagnostics.push(diagnostic)
}

/** The start of a unist node's position, if it has one. */
export function placeOf(node: {
  position?: { start: { line: number; column: number } } | undefined
}): Place | undefined {
  return node.position ? { line: node.position.start.line, column: node.position.start.column } : undefined
}

/** An estree node's place (its columns are 0-based). */
export function estreePlace(node: {
  loc?: { start: { line: number; column: number } } | null | undefined
}): Place | undefined {
  return node.loc ? { line: node.loc.start.line, column: node.loc.start.column + 1 } : undefined
}
