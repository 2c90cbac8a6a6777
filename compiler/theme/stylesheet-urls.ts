/**
 * Versions the site files an author's stylesheet loads: `url(images/bg.png)` becomes
 * `url(images/bg.png?v=<12 hex>)` (compiler/content/asset-version.ts), so a reader whose page and
 * stylesheet came from one deployment gets that deployment's background image or font even after the
 * next one went live, as pages do for the images they show. The stylesheet's own version, which the
 * shell links it with, is taken after this rewrite, so it changes whenever a file it loads changes.
 *
 * Only URLs that name a file of the site are touched: unquoted `url(…)` tokens and `url("…")` /
 * `src("…")` with a string, resolved against the stylesheet's own path (or the site root for `/…`).
 * Left as written: other origins and schemes (`https:`, `data:`), a URL with a query of its own or an
 * escape in it, a file the site does not publish, a content-hashed file (its path is its version) and
 * another stylesheet (an `@import`ed root stylesheet is scoped and published beside this one, and
 * versioning it would make two stylesheets' versions depend on each other).
 */
import { versionedUrl } from '../content/asset-version.js'
import { isBlank, preprocess, tokenize } from './css-syntax.js'

/** A URL in a stylesheet: where its text sits and, when it names a file of the site, that file's path. */
interface StylesheetUrl {
  start: number
  end: number
  url: string
  target: string | undefined
}

/** Every URL of `text` (preprocessed), the stylesheet at `path`. */
function stylesheetUrls(text: string, path: string): StylesheetUrl[] {
  const tokens = tokenize(text)
  const urls: StylesheetUrl[] = []
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!
    if (token.type === 'url') {
      // `url(` whitespace? the URL whitespace? `)`: the URL is the token's text between them.
      const inner = text.slice(token.start + 4, token.end).replace(/\)$/, '')
      const url = inner.trim()
      const start = token.start + 4 + inner.indexOf(url)
      urls.push({ start, end: start + url.length, url, target: siteFile(url, path) })
    } else if (token.type === 'function' && /^(?:url|src)$/i.test(token.value)) {
      let next = index + 1
      while (isBlank(tokens[next])) next++
      const string = tokens[next]
      if (string?.type !== 'string') continue
      const url = text.slice(string.start + 1, string.end - 1)
      urls.push({ start: string.start + 1, end: string.end - 1, url, target: siteFile(url, path) })
    }
  }
  return urls
}

/** The site files (not stylesheets) the stylesheet at `path` loads: published with the site like a page's images. */
export function stylesheetSiteFiles(css: string, path: string): string[] {
  return stylesheetUrls(preprocess(css), path).flatMap(({ target }) => (target ? [target] : []))
}

/** `css` (the stylesheet at `path`) with each URL of a site file versioned: `bytesOf` gives a published, un-hashed file's bytes. */
export function versionStylesheetUrls(
  css: string,
  path: string,
  bytesOf: (sitePath: string) => Uint8Array | undefined,
): string {
  const text = preprocess(css)
  let out = ''
  let at = 0
  for (const { start, end, url, target } of stylesheetUrls(text, path)) {
    const bytes = target === undefined ? undefined : bytesOf(target)
    if (!bytes) continue
    const hashAt = url.indexOf('#')
    out +=
      text.slice(at, start) +
      (hashAt === -1
        ? versionedUrl(url, '', bytes)
        : versionedUrl(url.slice(0, hashAt), url.slice(hashAt), bytes))
    at = end
  }
  return at === 0 ? css : out + text.slice(at)
}

/** The site file a stylesheet's URL names, or undefined for another origin, a query, an escape or a stylesheet. */
function siteFile(url: string, path: string): string | undefined {
  if (url === '' || url.includes('\\') || url.includes('?') || /^[a-z][a-z\d+.-]*:|^\/\//i.test(url))
    return undefined
  const hashAt = url.indexOf('#')
  const address = hashAt === -1 ? url : url.slice(0, hashAt)
  if (address === '') return undefined
  try {
    const resolved = new URL(address, `https://site.invalid/${path}`)
    if (resolved.host !== 'site.invalid') return undefined
    const target = decodeURIComponent(resolved.pathname.slice(1))
    return target === '' || target.endsWith('.css') ? undefined : target
  } catch {
    return undefined
  }
}
