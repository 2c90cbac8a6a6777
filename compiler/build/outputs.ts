/**
 * Stage 8 of `buildSite` (a whole-site build only): the files made from every page at once.
 * In: the site context, every page with its rendered body (and the shell memo's Markdown exports and
 * search records, when the build kept one), the paths of the page files made, and the redirects of
 * generated API pages that moved.
 * Out, into the site's files: llms.txt, llms-full.txt, robots.txt, the search index, the MCP page
 * list, 404.html, `_redirects` with a meta-refresh page per simple source, and a root `index.html`
 * that sends readers to the first page of a site without an `index` page.
 */
import escapeHtml from 'escape-html'
import { mcpEnabled } from '../config/mcp.js'
import type { RenderedPage } from '../content/render-page.js'
import type { SiteFiles, SourceFiles } from '../files.js'
import { type LlmsPage, renderLlmsFullTxt, renderLlmsTxt } from '../outputs/llms.js'
import { renderMarkdownExport } from '../outputs/markdown-export.js'
import { MCP_PAGES_PATH, type McpPage, renderMcpPages } from '../outputs/mcp-pages.js'
import { renderNotFoundBody } from '../outputs/not-found.js'
import { redirectOutputs } from '../outputs/redirects.js'
import { renderRobotsTxt } from '../outputs/robots.js'
import {
  renderSearchIndexOf,
  SEARCH_INDEX_PATH,
  type SearchEntry,
  searchRecord,
} from '../outputs/search-index.js'
import { folderIndexRedirects, type RedirectRule, redirectRules } from '../redirects.js'
import type { SiteContext } from '../theme/context.js'
import { renderShell } from '../theme/page.js'
import { pageUrlPath, ROOT_FILE_SLUG } from '../theme/urls.js'
import type { SitePage } from './discover.js'
import type { ShellMemo } from './shells.js'

const encoder = new TextEncoder()

/** Every page of the site, and the bodies this build rendered (by slug): what the site-wide files read. */
export interface SitePages {
  pages: readonly SitePage[]
  rendered: ReadonlyMap<string, RenderedPage>
  /** This build's outputs per page cache key, and the cache key of each page (by slug). */
  memo?: ShellMemo
  keyOf?: ReadonlyMap<string, string>
  /** The site's own files: an author's `llms.txt` or `llms-full.txt` at the root replaces the generated one. */
  files?: SourceFiles
}

/** The files the build makes for AI tools that an author may write instead, at the site's root. */
const AUTHORED_LLMS_FILES = ['llms.txt', 'llms-full.txt'] as const

export function writeSiteOutputs(
  output: SiteFiles,
  context: SiteContext,
  { pages, rendered, memo, keyOf, files }: SitePages,
  pagePaths: ReadonlySet<string>,
  movedPages: readonly RedirectRule[],
): string[] {
  const notices: string[] = []
  const { config } = context
  const listed: LlmsPage[] = []
  const search: string[] = []
  const mcpPages: McpPage[] = []
  const disallowed: string[] = []
  const indexing = config.seo?.indexing ?? 'navigable'
  for (const page of pages) {
    const body = rendered.get(page.slug)
    if (!body) continue
    const location = context.locations.get(page.slug)
    const section = location?.groups.at(-1)
    const hidden = !location || location.hidden || body.frontMatter.hidden === true
    if (body.frontMatter.noindex === true || (indexing === 'navigable' && hidden)) disallowed.push(page.slug)
    if (hidden) continue
    const outputs = memo?.pages.get(keyOf?.get(page.slug) ?? '')
    const llmsPage: LlmsPage = {
      slug: page.slug,
      title: body.title,
      markdown: outputs?.markdown ?? renderMarkdownExport(body),
    }
    if (body.description) llmsPage.description = body.description
    if (section) llmsPage.section = section
    listed.push(llmsPage)
    const sections = context.navigation.tabs[location.tab]?.path.map((section) => section.label) ?? []
    const mcpPage: McpPage = { slug: page.slug, title: body.title, path: [...sections, ...location.groups] }
    if (body.description) mcpPage.description = body.description
    mcpPages.push(mcpPage)
    if (outputs?.search !== undefined) {
      search.push(outputs.search)
      continue
    }
    const entry: SearchEntry = {
      url: pageUrlPath(page.slug),
      title: body.title,
      headings: body.toc.map((heading) => heading.text),
      text: body.text,
    }
    if (section) entry.section = section
    if (body.description) entry.description = body.description
    if (body.frontMatter.keywords) entry.keywords = body.frontMatter.keywords
    const record = searchRecord(entry)
    if (outputs) outputs.search = record
    search.push(record)
  }
  const generated = { 'llms.txt': renderLlmsTxt, 'llms-full.txt': renderLlmsFullTxt }
  for (const path of AUTHORED_LLMS_FILES) {
    // As on the format's own platform, an author's file is served as written, in place of ours.
    const own = files?.get(path)
    if (own) {
      output.set(path, own)
      notices.push(
        `${path}: serving your own ${path} in place of the generated one (delete it to get the generated one)`,
      )
    } else output.set(path, encoder.encode(generated[path](config, listed)))
  }
  output.set('robots.txt', encoder.encode(renderRobotsTxt(disallowed)))
  output.set(SEARCH_INDEX_PATH, renderSearchIndexOf(search, config.search?.synonyms))
  if (mcpEnabled(config))
    output.set(
      MCP_PAGES_PATH,
      renderMcpPages({
        name: config.name,
        ...(config.description ? { description: config.description } : {}),
        pages: mcpPages,
      }),
    )
  const home = context.firstPageOfTab.find((slug) => slug !== undefined)
  output.set(
    '404.html',
    encoder.encode(
      renderShell(context, {
        slug: ROOT_FILE_SLUG,
        title: 'Page not found',
        html: renderNotFoundBody(home),
        toc: [],
        frontMatter: { noindex: true, hideFooterPagination: true },
      }),
    ),
  )
  const existing = { has: (path: string) => output.has(path) || pagePaths.has(path) }
  const rules = redirectRules(config.redirects)
  // Generated API pages that moved to the platform's URL scheme, unless docs.json says otherwise.
  for (const rule of movedPages) if (!rules.some((own) => own.source === rule.source)) rules.push(rule)
  // A folder's own page is at `/guide/`; links and bookmarks to `/guide/index` still reach it.
  const authored = new Set(rules.map((rule) => rule.source))
  for (const rule of folderIndexRedirects(pages.map((page) => page.slug)))
    if (!authored.has(rule.source)) rules.push(rule)
  for (const [path, bytes] of redirectOutputs(rules, existing)) output.set(path, bytes)
  // A site without an `index` page still answers at its root: send readers to the first page.
  if (!rendered.has('index') && home) {
    const target = pageUrlPath(home)
    output.set(
      'index.html',
      encoder.encode(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(config.name)}</title><meta http-equiv="refresh" content="0; url=${escapeHtml(target)}"><link rel="canonical" href="${escapeHtml(target)}"></head><body><p><a href="${escapeHtml(target)}">Continue to ${escapeHtml(config.name)}</a></p></body></html>\n`,
      ),
    )
  }
  return notices
}
