/**
 * `validateSite`: docs.json checked against the site it describes. Beyond the schema: every page in
 * navigation exists as `<slug>.mdx` or `<slug>.md`, no page is listed twice in one tab, every tab has
 * somewhere to go, logo and favicon files exist, and every page's front matter parses and is valid.
 */

import { type ConfigWithSource, loadConfigWithSource } from './config/index.js'
import type { JsonPath } from './config/json-source.js'
import { isOperationReference, normalizePageSlug, SECTION_KEYS } from './config/navigation.js'
import { didYouMean } from './config/schema-errors.js'
import type { LoadedConfig, ValidationMode } from './config/types.js'
import { readFrontMatter } from './content/frontmatter.js'
import { type Diagnostic, sortDiagnostics } from './diagnostics.js'
import { decodeUtf8, isSafeRelativePath, type SourceFiles } from './files.js'
import { findRedirectCycles, redirectRules } from './redirects.js'

export interface SiteValidation extends LoadedConfig {
  /** Page slug → its source file (`guide/setup` → `guide/setup.mdx`), for every page found. */
  pageFiles: Map<string, string>
}

type Json = Record<string, unknown>

/** Keys that give a section navigation of its own. */
const SECTION_CONTENT = ['groups', 'pages', 'root', ...SECTION_KEYS.map((section) => section.key)]

/** Keys of a navigation section whose arrays are walked above (or hold no pages). */
const KNOWN_NAVIGATION_KEYS = new Set([...SECTION_CONTENT, 'hidden', 'global'])

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** External assets are not ours to check. */
const isExternal = (reference: string): boolean => /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(reference)

export function validateSite(files: SourceFiles, options: { mode: ValidationMode }): SiteValidation {
  const loaded = loadConfigWithSource(files, options)
  const diagnostics: Diagnostic[] = [...loaded.diagnostics]
  const pageFiles = new Map<string, string>()
  const result = (): SiteValidation => ({
    config: loaded.config,
    navigation: loaded.navigation,
    diagnostics: sortDiagnostics(diagnostics),
    pageFiles,
  })
  const data = loaded.data
  if (!data || !loaded.navigation) return result()

  const checks = new SiteChecks(files, options.mode, loaded, diagnostics, pageFiles)
  checks.navigation(data.navigation)
  checks.asset(data.logo, ['logo'], 'logo')
  checks.asset(data.favicon, ['favicon'], 'favicon')
  checks.apiDocuments(data.api)
  checks.redirects(data.redirects)
  checks.frontMatter()
  return result()
}

class SiteChecks {
  /** Slugs of every page file, for "did you mean" on a missing page. */
  private readonly knownSlugs: string[]

  constructor(
    private readonly files: SourceFiles,
    private readonly mode: ValidationMode,
    private readonly loaded: ConfigWithSource,
    private readonly diagnostics: Diagnostic[],
    private readonly pageFiles: Map<string, string>,
  ) {
    this.knownSlugs = [...files.keys()].filter((path) => /\.mdx?$/.test(path)).map(normalizePageSlug)
  }

  private report(
    path: JsonPath,
    at: 'value' | 'key',
    severity: Diagnostic['severity'],
    rule: string,
    message: string,
  ) {
    const { path: shown, ...place } = this.loaded.locate(path, at)
    this.diagnostics.push({ severity, ...place, path: shown, rule, message })
  }

  navigation(navigation: unknown): void {
    if (!isObject(navigation)) return
    this.section(navigation, ['navigation'], new Map())
    const hidden = Array.isArray(navigation.hidden) ? navigation.hidden : []
    hidden.forEach((slug, index) => {
      if (typeof slug === 'string') this.page(slug, ['navigation', 'hidden', index])
    })
  }

  /**
   * A section at any depth (the navigation itself, a tab, anchor, dropdown, product, version, language
   * or menu item): its pages and groups, then each nested section with a sidebar of its own, so every
   * page is checked whatever it sits under.
   */
  private section(holder: Json, path: JsonPath, seen: Map<string, JsonPath>): void {
    this.pages(holder.pages, [...path, 'pages'], seen)
    const groups = Array.isArray(holder.groups) ? holder.groups : []
    groups.forEach((group, index) => {
      this.group(group, [...path, 'groups', index], seen)
    })
    if (typeof holder.root === 'string') this.page(holder.root, [...path, 'root'])
    let first = true
    for (const { key, label } of SECTION_KEYS) {
      const entries = Array.isArray(holder[key]) ? holder[key] : []
      entries.forEach((entry, index) => {
        if (!isObject(entry)) return
        const entryPath: JsonPath = [...path, key, index]
        const isLink = (key === 'versions' || key === 'languages') && typeof entry.url === 'string'
        const empty = SECTION_CONTENT.every((content) => entry[content] === undefined)
        // An unresolved `$ref` was reported already.
        if (empty && !isLink && entry.href === undefined && entry.$ref === undefined) {
          this.report(
            entryPath,
            'value',
            'error',
            'empty-section',
            `${label} ${JSON.stringify(entry[label] ?? '')} has nothing to show; add "groups", "pages" or "href"`,
          )
        }
        // The holder's own pages join its first sidebar, so they share its duplicate check.
        this.section(entry, entryPath, first ? seen : new Map())
        first = false
      })
    }
    // A navigation kind this version does not know (reported by the schema): its pages are still checked.
    for (const [key, value] of Object.entries(holder)) {
      if (KNOWN_NAVIGATION_KEYS.has(key) || !Array.isArray(value)) continue
      value.forEach((entry, index) => {
        if (isObject(entry) && SECTION_CONTENT.some((content) => entry[content] !== undefined))
          this.section(entry, [...path, key, index], new Map())
      })
    }
  }

  private group(group: unknown, path: JsonPath, seen: Map<string, JsonPath>): void {
    if (!isObject(group)) return
    this.pages(group.pages, [...path, 'pages'], seen)
    if (typeof group.root === 'string') this.page(group.root, [...path, 'root'])
    const nested = Array.isArray(group.groups) ? group.groups : []
    nested.forEach((inner, index) => {
      this.group(inner, [...path, 'groups', index], seen)
    })
    const openapi = group.openapi
    if (typeof openapi === 'string') this.asset(openapi, [...path, 'openapi'], 'OpenAPI')
    else if (isObject(openapi) && typeof openapi.source === 'string') {
      this.asset(openapi.source, [...path, 'openapi', 'source'], 'OpenAPI')
    }
  }

  private pages(pages: unknown, path: JsonPath, seen: Map<string, JsonPath>): void {
    if (!Array.isArray(pages)) return
    pages.forEach((entry, index) => {
      const entryPath = [...path, index]
      if (isObject(entry)) {
        this.group(entry, entryPath, seen)
        return
      }
      if (typeof entry !== 'string' || isOperationReference(entry)) return
      const slug = normalizePageSlug(entry)
      const first = seen.get(slug)
      if (first) {
        this.report(
          entryPath,
          'value',
          // Harmless (the page shows twice) and seen on real sites: worth a look, never a failure.
          'warning',
          'duplicate-page',
          `page "${slug}" is listed twice in this tab (first at ${this.loaded.locate(first).path}); remove one`,
        )
      } else seen.set(slug, entryPath)
      this.page(entry, entryPath)
    })
  }

  /** A page slug must name a file under the root. */
  private page(entry: string, path: JsonPath): void {
    const slug = normalizePageSlug(entry)
    if (!isSafeRelativePath(slug)) {
      this.report(
        path,
        'value',
        'error',
        'invalid-page',
        `page ${JSON.stringify(entry)} is not a path inside the docs root`,
      )
      return
    }
    for (const extension of ['.mdx', '.md']) {
      if (this.files.has(slug + extension)) {
        this.pageFiles.set(slug, slug + extension)
        return
      }
    }
    const suggestion = didYouMean(slug, this.knownSlugs)
    this.report(
      path,
      'value',
      'error',
      'missing-page',
      `page "${slug}" not found: expected ${slug}.mdx or ${slug}.md${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
    )
  }

  /** `logo`/`favicon`: a path or a `{ light, dark }` pair of paths, each a file of the site. */
  asset(value: unknown, path: JsonPath, what: string): void {
    const references: [string, JsonPath][] = []
    if (typeof value === 'string') references.push([value, path])
    else if (isObject(value)) {
      for (const mode of ['light', 'dark'] as const) {
        const reference = value[mode]
        if (typeof reference === 'string') references.push([reference, [...path, mode]])
      }
    }
    for (const [reference, referencePath] of references) {
      if (isExternal(reference)) continue
      const file = reference.replace(/^(\.\/)+/, '').replace(/^\/+/, '')
      if (isSafeRelativePath(file) && this.files.has(file)) continue
      this.report(
        referencePath,
        'value',
        this.mode === 'strict' ? 'error' : 'warning',
        'missing-file',
        `${what} file "${file}" not found under the docs root`,
      )
    }
  }

  /** `api.openapi` / `api.asyncapi`: a path, a list of paths, or `{ source }`, each a file when local. */
  apiDocuments(api: unknown): void {
    if (!isObject(api)) return
    for (const key of ['openapi', 'asyncapi'] as const) {
      const spec = api[key]
      const label = key === 'openapi' ? 'OpenAPI' : 'AsyncAPI'
      if (typeof spec === 'string') this.asset(spec, ['api', key], label)
      else if (Array.isArray(spec)) {
        spec.forEach((entry, index) => {
          if (typeof entry === 'string') this.asset(entry, ['api', key, index], label)
        })
      } else if (isObject(spec) && typeof spec.source === 'string')
        this.asset(spec.source, ['api', key, 'source'], label)
    }
  }

  /** Redirects that lead back to where they started never reach a page: refused, with the cycle. */
  redirects(value: unknown): void {
    const rules = redirectRules(value)
    for (const cycle of findRedirectCycles(rules)) {
      const index = Array.isArray(value)
        ? value.findIndex(
            (entry) =>
              isObject(entry) &&
              typeof entry.source === 'string' &&
              redirectRules([entry])[0]?.source === cycle[0],
          )
        : -1
      this.report(
        index === -1 ? ['redirects'] : ['redirects', index],
        'value',
        'error',
        'redirect-loop',
        `redirects loop: ${cycle.join(' → ')}; change the destination of one of them to a page`,
      )
    }
  }

  /** Every page in navigation: its front matter parses and is valid (title required). */
  frontMatter(): void {
    for (const file of this.pageFiles.values()) {
      const bytes = this.files.get(file)
      if (!bytes) continue
      const text = decodeUtf8(bytes)
      if (text === undefined) {
        this.diagnostics.push({
          severity: 'error',
          file,
          rule: 'invalid-encoding',
          message: 'file is not valid UTF-8; save it as UTF-8',
        })
        continue
      }
      this.diagnostics.push(...readFrontMatter(text, file, this.mode).diagnostics)
    }
  }
}
