/**
 * Stage 7 of `buildSite`: wrap every page in the shell.
 * In: the pages this build makes with their rendered bodies and cache keys, the site context (its
 * assets included) and the Tailwind stylesheet.
 * Out: each page's `index.html` (theme/) and `.md` export (outputs/), handed to the delivery as made,
 * except where an author's file already has the path; and the memo of these outputs that the next
 * build handed this build's cache reuses while nothing every shell shows has changed.
 */
import { createHash } from 'node:crypto'
import type { RenderedPage } from '../content/render-page.js'
import type { SiteFiles } from '../files.js'
import { renderMarkdownExport } from '../outputs/markdown-export.js'
import type { ShellPage, SiteContext } from '../theme/context.js'
import { renderShell } from '../theme/page.js'
import type { TailwindStylesheet } from '../theme/tailwind.js'
import { markdownOutputPath, pageOutputPath } from '../theme/urls.js'
import type { BuildCache, BuildOptions } from '../types.js'
import type { Delivery } from './delivery.js'
import type { SitePage } from './discover.js'
import type { RenderedBodies } from './render.js'

const encoder = new TextEncoder()

/**
 * A build's per-page outputs (the page in its shell, its Markdown export, its search record), by the
 * page's cache key, valid while the site's shell key holds. Kept beside the cache object the build
 * returned, so the next build handed that cache (docsctl dev, a rebuild in the same process) re-renders
 * and re-encodes only what changed; a cache read back from JSON simply finds none.
 */
export interface ShellMemo {
  shellKey: string
  pages: Map<string, PageOutputs>
}

export interface PageOutputs {
  html: Uint8Array
  markdown: string
  /** The page's search record as JSON, once the site-wide step made it. */
  search?: string
}

const shellMemos = new WeakMap<BuildCache, ShellMemo>()

/** Keeps this build's memo beside the cache it returns, for the next build handed that cache. */
export const keepShellMemo = (cache: BuildCache, memo: ShellMemo): void => {
  shellMemos.set(cache, memo)
}

/** A hash of everything the shell of every page reads besides the page itself. */
function siteShellKey(context: SiteContext, options: BuildOptions): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        context.config,
        context.navigation,
        [...context.pages],
        context.firstPageOfTab,
        context.assets,
        options.analytics ?? null,
      ]),
    )
    .digest('hex')
}

export interface WrappedPages {
  /** The paths of the page files made (those an author's file took are not among them). */
  pagePaths: Set<string>
  /** This build's per-page outputs, unless it streamed its files. */
  memo: ShellMemo | undefined
}

export async function wrapPages(
  output: SiteFiles,
  delivery: Delivery,
  context: SiteContext,
  {
    selected,
    bodies,
    tailwind,
    options,
  }: {
    selected: readonly SitePage[]
    bodies: Pick<RenderedBodies, 'rendered' | 'keyOf' | 'reused'>
    tailwind: TailwindStylesheet | undefined
    options: BuildOptions
  },
): Promise<WrappedPages> {
  const { rendered, keyOf, reused } = bodies
  // Reuse the previous build's outputs of unchanged pages when nothing every shell shows changed
  // (the Tailwind stylesheet and root stylesheets included: they are in context.assets).
  const shellKey = siteShellKey(context, options)
  const earlier = options.cache ? shellMemos.get(options.cache) : undefined
  const reusable = earlier?.shellKey === shellKey ? earlier.pages : undefined
  // A build that streams its files keeps none of them: memory stays bounded, and its next build
  // wraps every page in the shell again.
  const memo: ShellMemo | undefined = delivery.streaming
    ? undefined
    : { shellKey, pages: options.only && reusable ? new Map(reusable) : new Map() }
  const pagePaths = new Set<string>()
  for (const page of selected) {
    const body = rendered.get(page.slug)
    if (!body) continue
    const key = keyOf.get(page.slug)!
    const outputs = (reused.has(page.slug) ? reusable?.get(key) : undefined) ?? {
      html: encoder.encode(renderShell(context, shellPage(page, body, tailwind))),
      markdown: renderMarkdownExport(body),
    }
    memo?.pages.set(key, outputs)
    // An author's file at the same path takes the page's place, as it always has.
    for (const [path, bytes] of [
      [pageOutputPath(page.slug), outputs.html],
      [markdownOutputPath(page.slug), encoder.encode(outputs.markdown)],
    ] as const) {
      if (output.has(path)) continue
      pagePaths.add(path)
      if (delivery.streaming) await delivery.deliver(path, bytes)
      else output.set(path, bytes)
    }
  }
  return { pagePaths, memo }
}

/** What the shell shows of one page's body. */
function shellPage(page: SitePage, body: RenderedPage, tailwind: TailwindStylesheet | undefined): ShellPage {
  return {
    slug: page.slug,
    title: body.title,
    ...(body.description ? { description: body.description } : {}),
    html: body.html,
    toc: body.toc,
    frontMatter: { ...body.frontMatter },
    ...(body.math ? { math: true } : {}),
    ...(body.mermaid ? { mermaid: true } : {}),
    ...(tailwind && body.classNames?.some((name) => tailwind.classes.has(name)) ? { tailwind: true } : {}),
  }
}
