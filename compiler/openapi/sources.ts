/**
 * Where the specs of a site are named and which file a name means: `api.openapi`, `api.asyncapi` and
 * navigation sections' `openapi` in docs.json, `"spec.yaml METHOD /path"` operation references, spec
 * URLs (stored in the upload where the CLI put what it fetched), names without an extension, names
 * relative to a page, and spec files docs.json does not name.
 * In: docs.json and the site's files. Out: spec sources and the site paths they mean.
 */
import { createHash } from 'node:crypto'
import type { DocsConfig } from '../config/types.js'
import type { SourceFiles } from '../files.js'

export type Json = Record<string, unknown>

export const isRecord = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** docs.json as read: the navigation is walked as data, whatever the generated types say. */
export const rawConfig = (config: DocsConfig): Json => config as unknown as Json

/** Where the CLI stores a spec it fetched from a URL in docs.json, inside the upload. */
export function fetchedSpecPath(url: string): string {
  return `_openapi/${createHash('sha256').update(url).digest('hex').slice(0, 16)}.spec`
}

export const isSpecUrl = (source: string): boolean => /^https?:\/\//i.test(source)

/** Every spec source docs.json names (`api.openapi`, sections' `openapi`), URLs included, each once. */
export function configSpecSources(config: DocsConfig): string[] {
  const sources = new Set<string>()
  const add = (value: unknown) => {
    for (const entry of Array.isArray(value) ? value : [value]) {
      if (typeof entry === 'string' && entry.trim() !== '') sources.add(entry.trim())
      else if (isRecord(entry) && typeof entry.source === 'string') sources.add(entry.source.trim())
    }
  }
  const api = rawConfig(config).api
  if (isRecord(api)) {
    add(api.openapi)
    add(api.asyncapi)
  }
  const walk = (node: unknown) => {
    if (Array.isArray(node)) for (const entry of node) walk(entry)
    else if (isRecord(node)) {
      if (node.openapi !== undefined) add(node.openapi)
      if (node.asyncapi !== undefined) add(node.asyncapi)
      for (const [key, value] of Object.entries(node))
        if (key !== 'openapi' && key !== 'asyncapi') walk(value)
    }
  }
  walk(rawConfig(config).navigation)
  return [...sources]
}

/** `"openapi.yaml GET /users"` → its parts; `undefined` for anything that is not an operation reference. */
export function parseOperationReference(
  entry: string,
): { spec?: string; method: string; path: string } | undefined {
  // The spec may be named without its extension (`v3-openapi GET /runs/{id}`), as the format's tools allow.
  const match = /^(?:(\S+)\s+)?(get|post|put|patch|delete|head|options|trace|webhook)\s+(\S.*)$/i.exec(
    entry.trim(),
  )
  if (!match) return undefined
  const reference: { spec?: string; method: string; path: string } = {
    method: match[2]!.toUpperCase(),
    path: match[3]!.trim(),
  }
  if (match[1]) reference.spec = match[1]
  return reference
}

/** The site path a source names: the file itself, or where the CLI put what it fetched from a URL. */
export const specFile = (source: string): string =>
  isSpecUrl(source)
    ? fetchedSpecPath(source)
    : source
        .trim()
        .replace(/^(\.\/)+/, '')
        .replace(/^\/+/, '')

export function sourceList(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).flatMap((entry) =>
    typeof entry === 'string'
      ? [entry.trim()]
      : isRecord(entry) && typeof entry.source === 'string'
        ? [entry.source.trim()]
        : [],
  )
}

/** A spec named in front matter: relative to the page first (as authors often write it), else to the root. */
export function resolveRelative(source: string, page: string, files: SourceFiles): string {
  if (isSpecUrl(source)) return source
  const clean = source.replace(/^(\.\/)+/, '')
  if (source.startsWith('/')) return resolveSpecName(clean.replace(/^\/+/, ''), files)
  const directory = page.includes('/') ? page.slice(0, page.lastIndexOf('/') + 1) : ''
  const beside = `${directory}${clean}`
  const found = resolveSpecName(beside, files)
  return files.has(found) ? found : resolveSpecName(clean, files)
}

const SPEC_EXTENSIONS = ['.yaml', '.yml', '.json']

/**
 * The site file a spec name means, as the format's own tools read it: the path itself, else the path
 * with a spec extension (`v3-openapi` → `v3-openapi.yaml`), else the one spec file in the site with
 * that stem (`v3-openapi` → `api/v3-openapi.yml`). A name that means nothing comes back as given, so
 * the diagnostic quotes what the author wrote.
 */
export function resolveSpecName(name: string, files: SourceFiles): string {
  if (isSpecUrl(name) || files.has(name)) return name
  for (const extension of SPEC_EXTENSIONS) if (files.has(`${name}${extension}`)) return `${name}${extension}`
  if (name.includes('/')) return name
  const byStem = [...files.keys()].filter(
    (path) =>
      /\.(json|ya?ml)$/i.test(path) && path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '') === name,
  )
  return byStem.length === 1 ? byStem[0]! : name
}

/** Spec files in the site that docs.json does not name (front matter `openapi:` may use any). */
export function discoveredSpecs(files: SourceFiles): string[] {
  const found: string[] = []
  for (const [path, bytes] of files) {
    if (!/\.(json|ya?ml)$/i.test(path) || path === 'docs.json' || path.includes('node_modules/')) continue
    const head = new TextDecoder().decode(bytes.subarray(0, 400))
    if (/["']?(openapi|swagger|asyncapi)["']?\s*:\s*["']?[23]\./.test(head)) found.push(path)
  }
  return found.sort()
}
