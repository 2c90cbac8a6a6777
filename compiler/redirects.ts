/**
 * docs.json `redirects`: `{ source, destination, permanent }` with `:param` (one path segment),
 * `:param*` (any number of segments) and `*` (the rest of the path, `:splat` in the destination).
 * One matcher serves the server, `docsctl dev` and the link checker; the static export carries the
 * same rules as a `_redirects` file (the form Netlify and Cloudflare Pages read), which the server
 * reads back, so a deployment needs nothing beyond its files.
 */

/** The static export's rules file, which the server reads back. */
export const REDIRECTS_FILE = '_redirects'

/**
 * Redirects a build stage generates before pages render (generated API pages that moved to the
 * platform's URL scheme), as JSON rules in the site's file map, so the link checker in every render
 * worker knows them. The API stage drops one uploaded with the site; it is never published.
 */
export const GENERATED_REDIRECTS_FILE = '_openapi/redirects.json'

/** `/guide/index` → `/guide/` for every folder page (`guide/index`) that has no page `guide` beside it. */
export function folderIndexRedirects(pageSlugs: Iterable<string>): RedirectRule[] {
  const slugs = new Set(pageSlugs)
  const rules: RedirectRule[] = []
  for (const slug of slugs) {
    if (!slug.endsWith('/index')) continue
    const folder = slug.slice(0, -'/index'.length)
    if (!slugs.has(folder)) rules.push({ source: `/${slug}`, destination: `/${folder}/`, permanent: true })
  }
  return rules
}

export interface RedirectRule {
  source: string
  destination: string
  permanent: boolean
}

export interface RedirectMatch {
  /** A site path (`/new/page?x=1`) or an absolute URL. */
  location: string
  status: 307 | 308
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** The well-formed rules of a docs.json `redirects` value; anything else is left out. */
export function redirectRules(value: unknown): RedirectRule[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((entry) => {
    if (!isObject(entry) || typeof entry.source !== 'string' || typeof entry.destination !== 'string')
      return []
    const source = normalizeSource(entry.source)
    if (source === undefined || entry.destination.trim() === '') return []
    return [{ source, destination: entry.destination.trim(), permanent: entry.permanent !== false }]
  })
}

/** `old/page/` → `/old/page`: sources match paths without a trailing slash. */
function normalizeSource(source: string): string | undefined {
  const trimmed = source.trim()
  if (trimmed === '') return undefined
  const path = `/${trimmed.replace(/^\/+/, '')}`.replace(/\/+$/, '')
  return path === '' ? '/' : path
}

/** A rule without `:param` or `*`: it matches one path, and the static export gives it its own page. */
export const isSimpleSource = (source: string): boolean => !/[:*]/.test(source)

type Token = { literal: string } | { param: string; rest: boolean }

function tokenize(source: string): Token[] {
  return source
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment): Token => {
      if (segment === '*') return { param: 'splat', rest: true }
      const param = /^:([A-Za-z_][A-Za-z0-9_]*)([*+?]?)$/.exec(segment)
      if (param) return { param: param[1]!, rest: param[2] === '*' || param[2] === '+' }
      return { literal: safeDecode(segment) }
    })
}

const safeDecode = (segment: string): string => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** Matches decoded path segments against a rule's tokens; returns the captured params. */
function matchTokens(tokens: readonly Token[], segments: readonly string[]): Map<string, string> | undefined {
  const params = new Map<string, string>()
  let at = 0
  for (const [index, token] of tokens.entries()) {
    if ('literal' in token) {
      if (segments[at] !== token.literal) return undefined
      at++
      continue
    }
    if (token.rest) {
      // The rest of the path; a later literal token would need backtracking, which rules never use.
      if (index !== tokens.length - 1) return undefined
      params.set(token.param, segments.slice(at).join('/'))
      at = segments.length
      continue
    }
    const segment = segments[at]
    if (segment === undefined || segment === '') return undefined
    params.set(token.param, segment)
    at++
  }
  return at === segments.length ? params : undefined
}

/** The destination with the source's params filled in (`:slug*`, `:slug`, `*`, `:splat`). */
function fill(destination: string, params: ReadonlyMap<string, string>): string {
  return destination
    .replace(/:([A-Za-z_][A-Za-z0-9_]*)[*+?]?/g, (whole, name: string) => {
      const value = params.get(name)
      return value === undefined ? whole : value.split('/').map(encodeURIComponent).join('/')
    })
    .replace(/\*/g, () => (params.get('splat') ?? '').split('/').map(encodeURIComponent).join('/'))
    .replace(/([^:/])\/{2,}/g, '$1/')
}

export interface RedirectMatcher {
  readonly rules: readonly RedirectRule[]
  /** The redirect for a decoded site path (`/old/page`) and raw query (`` or `?a=1`), kept on the target. */
  match(path: string, query?: string): RedirectMatch | undefined
}

export function createRedirectMatcher(rules: readonly RedirectRule[]): RedirectMatcher {
  const exact = new Map<string, RedirectRule>()
  const patterns: { rule: RedirectRule; tokens: Token[] }[] = []
  for (const rule of rules) {
    if (isSimpleSource(rule.source)) {
      const key = safeDecode(rule.source)
      if (!exact.has(key)) exact.set(key, rule)
    } else patterns.push({ rule, tokens: tokenize(rule.source) })
  }
  return {
    rules,
    match(path, query = '') {
      const clean = path.length > 1 ? path.replace(/\/+$/, '') : path
      let found: { rule: RedirectRule; params: Map<string, string> } | undefined
      const simple = exact.get(clean)
      if (simple) found = { rule: simple, params: new Map() }
      else {
        const segments = clean.split('/').filter((segment) => segment !== '')
        for (const pattern of patterns) {
          const params = matchTokens(pattern.tokens, segments)
          if (params) {
            found = { rule: pattern.rule, params }
            break
          }
        }
      }
      if (!found) return undefined
      let location = fill(found.rule.destination, found.params)
      if (!isAbsoluteUrl(location) && !location.startsWith('/')) location = `/${location}`
      if (query && query !== '?') location += location.includes('?') ? `&${query.slice(1)}` : query
      // Pointing at the requested path itself would loop forever: no redirect.
      if (!isAbsoluteUrl(location) && stripQuery(location).replace(/\/+$/, '') === clean.replace(/\/+$/, ''))
        return undefined
      return { location, status: found.rule.permanent ? 308 : 307 }
    },
  }
}

export const isAbsoluteUrl = (location: string): boolean =>
  /^[a-z][a-z0-9+.-]*:/i.test(location) || location.startsWith('//')

const stripQuery = (location: string): string => location.replace(/[?#].*$/, '')

/**
 * Chains of redirects that come back to where they started (`/a → /b → /a`), each once, as the paths
 * in order. Followed through simple and pattern rules alike, from every simple source.
 */
export function findRedirectCycles(rules: readonly RedirectRule[]): string[][] {
  const matcher = createRedirectMatcher(rules)
  const cycles: string[][] = []
  const reported = new Set<string>()
  for (const rule of rules) {
    if (!isSimpleSource(rule.source)) continue
    const chain = [rule.source]
    let current = rule.source
    for (let hops = 0; hops < 32; hops++) {
      const next = matcher.match(current)
      if (!next || isAbsoluteUrl(next.location)) break
      const path = stripQuery(next.location).replace(/\/+$/, '') || '/'
      const seenAt = chain.indexOf(path)
      if (seenAt !== -1) {
        const cycle = [...chain.slice(seenAt), path]
        const key = [...cycle.slice(0, -1)].sort().join('\n')
        if (!reported.has(key)) {
          reported.add(key)
          cycles.push(cycle)
        }
        break
      }
      chain.push(path)
      current = path
    }
  }
  return cycles
}

/**
 * The `_redirects` file of the static export: `source destination status!` per line. `:param*` at the
 * end becomes the hosts' `*` / `:splat`; `!` makes the rule apply even where a file exists (the
 * meta-refresh page of a simple source), as docs.json redirects do.
 */
export function renderRedirectsFile(rules: readonly RedirectRule[]): string {
  const lines = rules.map((rule) => {
    const rest = /\/:([A-Za-z_][A-Za-z0-9_]*)[*+]$/.exec(rule.source)
    let source = rule.source
    let destination = rule.destination
    if (rest) {
      source = `${rule.source.slice(0, rest.index)}/*`
      destination = destination.replaceAll(new RegExp(`:${rest[1]}[*+]?`, 'g'), ':splat')
    }
    return `${source} ${destination} ${rule.permanent ? 308 : 307}!`
  })
  return lines.length ? `${lines.join('\n')}\n` : ''
}

/** Rules read back from a `_redirects` file (as written by `renderRedirectsFile`, or by hand). */
export function parseRedirectsFile(text: string): RedirectRule[] {
  const rules: RedirectRule[] = []
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/)
    const [source, destination, status = '301'] = fields
    if (!source || !destination || source.startsWith('#')) continue
    const code = Number.parseInt(status, 10)
    if (![301, 302, 303, 307, 308].includes(code)) continue
    const normalized = normalizeSource(source)
    if (normalized === undefined) continue
    rules.push({ source: normalized, destination, permanent: code === 301 || code === 308 })
  }
  return rules
}

/** The site file of a simple source's meta-refresh page: `/old/page` → `old/page/index.html`. */
export const refreshPagePath = (source: string): string | undefined => {
  const path = safeDecode(source).replace(/^\/+/, '')
  if (path === '' || path.split('/').some((segment) => segment === '..' || segment === '.')) return undefined
  return `${path}/index.html`
}
