/**
 * A deployment's built site as the change report reads it: its pages (an `index.html` the build made
 * for a page, with its Markdown export beside it), each page's rendered article, the ids it holds and
 * the links it makes, the listed pages in navigation order, and its redirects. Read from the site
 * manifest and the blob store, the way the site server serves it; regexes suffice because the HTML is
 * the compiler's own serialisation (double-quoted attributes, no comments).
 */
import { MCP_PAGES_PATH } from '../../compiler/outputs/mcp-pages.js'
import {
  createRedirectMatcher,
  parseRedirectsFile,
  REDIRECTS_FILE,
  type RedirectMatcher,
} from '../../compiler/redirects.js'
import type { BlobStore } from '../blobs/store.js'
import { readSiteManifest } from '../builds/site-manifest-store.js'

export interface BuiltPage {
  slug: string
  title: string
  /** The rendered article without the previous/next links, which change with the neighbours. */
  content: string
  /** The page's Markdown export, or its article when the build made none. */
  markdown: string
  ids: ReadonlySet<string>
  hrefs: readonly string[]
}

export interface ListedPage {
  slug: string
  title: string
  /** Tabs, sections and groups above the page. */
  path: string[]
}

export interface BuiltSite {
  pages: ReadonlyMap<string, BuiltPage>
  /** Every file path the site serves (pages, exports, assets). */
  files: ReadonlySet<string>
  /** The listed pages in navigation order; undefined when the build wrote no `_mcp/pages.json`. */
  navigation: ListedPage[] | undefined
  redirects: RedirectMatcher
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" }
export const decodeAttribute = (value: string): string =>
  value.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_whole, name: string) => entities[name] ?? '')

const textOf = (html: string): string => decodeAttribute(html.replace(/<[^>]*>/g, '')).trim()

/** `guide/setup/index.html` → `guide/setup`; `index.html` → `index`; other files → undefined. */
function pageSlugOf(path: string): string | undefined {
  if (path === 'index.html') return 'index'
  if (!path.endsWith('/index.html') || path.startsWith('_')) return undefined
  return path.slice(0, -'/index.html'.length)
}

/** The page's rendered article, or undefined for a file that is no page (a redirect's refresh page). */
export function articleOf(html: string): string | undefined {
  const start = html.indexOf('<article')
  const end = html.lastIndexOf('</article>')
  if (start < 0 || end < start) return undefined
  const article = html.slice(start, end)
  const pager = article.lastIndexOf('<nav class="d-pagination')
  return pager < 0 ? article : article.slice(0, pager)
}

export function readPage(slug: string, html: string, markdown: string | undefined): BuiltPage | undefined {
  const content = articleOf(html)
  if (content === undefined) return undefined
  const heading = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(content)?.[1]
  const title = heading === undefined ? (/<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? slug) : heading
  return {
    slug,
    title: textOf(title) || slug,
    content,
    markdown: markdown ?? content,
    ids: new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((match) => decodeAttribute(match[1] ?? ''))),
    hrefs: [...content.matchAll(/<a\b[^>]*?\shref="([^"]*)"/g)].map((match) =>
      decodeAttribute(match[1] ?? ''),
    ),
  }
}

function navigationOf(bytes: Buffer | undefined): ListedPage[] | undefined {
  if (!bytes) return undefined
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as { pages?: unknown }
    if (!Array.isArray(parsed.pages)) return undefined
    return parsed.pages.flatMap((entry: unknown) => {
      const page = entry as { slug?: unknown; title?: unknown; path?: unknown }
      if (typeof page.slug !== 'string') return []
      return [
        {
          slug: page.slug,
          title: typeof page.title === 'string' ? page.title : page.slug,
          path: Array.isArray(page.path) ? page.path.filter((part) => typeof part === 'string') : [],
        },
      ]
    })
  } catch {
    return undefined
  }
}

/** Reads files of a site at most `concurrency` at a time. */
async function readAll(
  blobs: Pick<BlobStore, 'get'>,
  hashes: readonly (string | undefined)[],
  concurrency = 16,
): Promise<(Buffer | undefined)[]> {
  const out: (Buffer | undefined)[] = new Array(hashes.length)
  let next = 0
  const worker = async () => {
    while (next < hashes.length) {
      const index = next++
      const sha256 = hashes[index]
      out[index] = sha256 === undefined ? undefined : await blobs.get(sha256)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, hashes.length) }, worker))
  return out
}

export async function loadBuiltSite(
  blobs: Pick<BlobStore, 'get'>,
  manifestSha256: string,
): Promise<BuiltSite> {
  const read = await readSiteManifest(blobs, manifestSha256)
  if (!read) throw new Error(`the site manifest ${manifestSha256} is not in the blob store`)
  const { manifest } = read
  const slugs = Object.keys(manifest.files).flatMap((path) => {
    const slug = pageSlugOf(path)
    return slug === undefined ? [] : [slug]
  })
  const htmlPath = (slug: string) => (slug === 'index' ? 'index.html' : `${slug}/index.html`)
  const [html, markdown, extra] = await Promise.all([
    readAll(
      blobs,
      slugs.map((slug) => manifest.files[htmlPath(slug)]?.sha256),
    ),
    readAll(
      blobs,
      slugs.map((slug) => manifest.files[`${slug}.md`]?.sha256),
    ),
    readAll(blobs, [manifest.files[MCP_PAGES_PATH]?.sha256, manifest.files[REDIRECTS_FILE]?.sha256]),
  ])
  const pages = new Map<string, BuiltPage>()
  slugs.forEach((slug, index) => {
    const page = html[index]
      ? readPage(slug, html[index].toString('utf8'), markdown[index]?.toString('utf8'))
      : undefined
    if (page) pages.set(slug, page)
  })
  return {
    pages,
    files: new Set(Object.keys(manifest.files)),
    navigation: navigationOf(extra[0]),
    redirects: createRedirectMatcher(extra[1] ? parseRedirectsFile(extra[1].toString('utf8')) : []),
  }
}
