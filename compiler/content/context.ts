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
import type { CodeModule } from './code-modules.js'
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
  /** Unknown component names already reported on this page: one warning per name. */
  unknownComponents: Set<string>
  /** Icon names already reported (unknown, or Pro) on this page: one warning per name, not per use. */
  unknownIcons: Set<string>
  /** True once KaTeX rendered math on the page, so its shell links KaTeX's stylesheet. */
  math?: boolean
  /** True once the page has a Mermaid diagram, so its shell loads the diagram script. */
  mermaid?: boolean
  /** Class names authors (and their code components) put on HTML elements: Tailwind's candidates. */
  classNames: Set<string>
  /** Code modules (components defined in code) by site path, for the page's sandbox. */
  codeModules: Map<string, CodeModule>
  diagnostics: Diagnostic[]
  /** Problems past `PAGE_DIAGNOSTIC_LIMIT`, counted instead of kept (errors apart, so they still fail). */
  omitted: { warnings: number; errors: number }
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

/** At most this many diagnostics are kept per page; the rest become one "N more" diagnostic. */
export const PAGE_DIAGNOSTIC_LIMIT = 100

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
  if (page.diagnostics.length >= PAGE_DIAGNOSTIC_LIMIT) {
    page.omitted[severity === 'error' ? 'errors' : 'warnings']++
    return
  }
  const diagnostic: Diagnostic = { severity, file, rule, message }
  if (place?.line !== undefined) diagnostic.line = place.line
  if (place?.column !== undefined) diagnostic.column = place.column
  page.diagnostics.push(diagnostic)
}

/** The page's diagnostics, with one that counts those past the limit (an error if any of them was). */
export function pageDiagnostics(page: PageContext): Diagnostic[] {
  const { warnings, errors } = page.omitted
  if (warnings + errors === 0) return page.diagnostics
  return [
    ...page.diagnostics,
    {
      severity: errors > 0 ? 'error' : 'warning',
      file: page.file,
      rule: 'too-many-diagnostics',
      message: `${warnings + errors} more problems on this page are not listed (${errors} errors, ${warnings} warnings); fix the ones above first`,
    },
  ]
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
